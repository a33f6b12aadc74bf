//! A JSON object kept as the text it was read from: each key with the byte range of its value,
//! in input order. Reading a puzzle line this way costs one pass and no tree of values; the
//! keys a command does not use are written back exactly as they came (compacted), never
//! re-encoded (so `-0` stays `-0` and `1.50` stays `1.50`).

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::io::Write;
use std::ops::Range;

/// A JSON object as read: its text and, per key in input order, where its value lies.
#[derive(Clone, Debug)]
pub struct RawObject {
    text: String,
    fields: Vec<(String, Range<usize>)>,
}

impl RawObject {
    /// Parse `text`, which must be one JSON object (errors are serde_json's; callers that need
    /// a friendlier message parse the text again as a `Value` to describe it).
    pub fn parse(text: String) -> Result<RawObject, serde_json::Error> {
        let fields = {
            let mut de = serde_json::Deserializer::from_str(&text);
            let fields = Fields { base: &text }.deserialize(&mut de)?;
            de.end()?;
            fields
        };
        Ok(RawObject { text, fields })
    }

    /// The object's text, as read.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The JSON text of `key`'s value (the last one if the key is repeated), if present.
    pub fn raw(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, range)| &self.text[range.clone()])
    }

    /// `key`'s value, parsed.
    pub fn get(&self, key: &str) -> Option<Value> {
        self.raw(key).and_then(|raw| serde_json::from_str(raw).ok())
    }

    /// The first key given twice, if any (a reader that keeps one value would hide the other).
    pub fn repeated_key(&self) -> Option<&str> {
        let mut keys: Vec<(&str, usize)> = self
            .fields
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (k.as_str(), i))
            .collect();
        keys.sort_unstable();
        keys.windows(2)
            .filter(|w| w[0].0 == w[1].0)
            .map(|w| w[1])
            .min_by_key(|&(_, second)| second)
            .map(|(key, _)| key)
    }

    /// Write the object as one compact JSON line with `extra`'s keys set: a key already present
    /// keeps its place and takes the new value, new keys follow in `extra`'s order.
    pub fn write_with<W: Write>(
        &self,
        out: &mut W,
        extra: &Map<String, Value>,
    ) -> std::io::Result<()> {
        out.write_all(b"{")?;
        let mut first = true;
        let mut separator = |out: &mut W| match std::mem::replace(&mut first, false) {
            true => Ok(()),
            false => out.write_all(b","),
        };
        // Every field as given (the puzzle reader refuses a key given twice).
        for (key, range) in &self.fields {
            separator(out)?;
            serde_json::to_writer(&mut *out, key)?;
            out.write_all(b":")?;
            match extra.get(key) {
                Some(value) => serde_json::to_writer(&mut *out, value)?,
                None => write_compact(out, &self.text[range.clone()])?,
            }
        }
        for (key, value) in extra {
            if self.raw(key).is_none() {
                separator(out)?;
                serde_json::to_writer(&mut *out, key)?;
                out.write_all(b":")?;
                serde_json::to_writer(&mut *out, value)?;
            }
        }
        out.write_all(b"}\n")
    }
}

/// Write JSON text without the blank space outside its strings.
fn write_compact<W: Write>(out: &mut W, json: &str) -> std::io::Result<()> {
    let bytes = json.as_bytes();
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    if !bytes.iter().any(blank) {
        return out.write_all(bytes);
    }
    let (mut start, mut in_string, mut escaped) = (0, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if blank(&b) {
            out.write_all(&bytes[start..i])?;
            start = i + 1;
        }
    }
    out.write_all(&bytes[start..])
}

/// Reads an object's keys and the ranges of their values within `base`.
struct Fields<'a> {
    base: &'a str,
}

impl<'de> DeserializeSeed<'de> for Fields<'de> {
    type Value = Vec<(String, Range<usize>)>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Fields<'de> {
    type Value = Vec<(String, Range<usize>)>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields = Vec::with_capacity(8);
        while let Some(key) = map.next_key::<String>()? {
            let raw: &'de RawValue = map.next_value()?;
            // The raw value borrows from `base`: its place is the pointers' difference.
            let start = raw.get().as_ptr() as usize - self.base.as_ptr() as usize;
            fields.push((key, start..start + raw.get().len()));
        }
        Ok(fields)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(object: &RawObject, extra: Value) -> String {
        let mut out = Vec::new();
        let Value::Object(extra) = extra else {
            unreachable!()
        };
        object.write_with(&mut out, &extra).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn keeps_keys_in_order_values_verbatim_and_sets_extra_keys() {
        let text = r#" { "id" : "a b\"c" , "n": -0, "x": [1, 2.50, {"k": " v "}], "count": 7 } "#;
        let object = RawObject::parse(text.to_string()).unwrap();
        assert_eq!(object.raw("n"), Some("-0"));
        assert_eq!(object.get("id"), Some(json!("a b\"c")));
        assert_eq!(
            line(&object, json!({"count": 1, "solution": [3]})),
            "{\"id\":\"a b\\\"c\",\"n\":-0,\"x\":[1,2.50,{\"k\":\" v \"}],\"count\":1,\"solution\":[3]}\n"
        );
    }

    #[test]
    fn a_repeated_key_is_found() {
        let object = RawObject::parse(r#"{"a": 1, "b": 2, "a": 3, "b": 4}"#.into()).unwrap();
        assert_eq!(object.repeated_key(), Some("a"));
        assert_eq!(object.raw("a"), Some("3"));
        let once = RawObject::parse(r#"{"a": 1, "b": 2}"#.into()).unwrap();
        assert_eq!(once.repeated_key(), None);
    }

    #[test]
    fn anything_but_one_object_is_an_error() {
        for text in ["[1, 2]", "{\"a\": 1} x", "{\"a\": }", "3", ""] {
            assert!(RawObject::parse(text.into()).is_err(), "{text}");
        }
    }
}
