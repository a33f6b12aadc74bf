//! A JSON object kept as the text it was read from: each key with the byte range of its value,
//! in input order. Reading a puzzle line this way costs one pass and no tree of values; the
//! keys a command does not use are written back exactly as they came (compacted), never
//! re-encoded (so `-0` stays `-0` and `1.50` stays `1.50`).

use super::scan::{self, Typed};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::io::Write;
use std::ops::Range;

/// A key as read: a range of the object's text (the common case, no allocation), or its
/// unescaped text when the key holds escapes.
#[derive(Clone, Debug)]
enum Key {
    Span(Range<usize>),
    Owned(Box<str>),
}

/// A JSON object as read: its text and, per key in input order, where its value lies.
#[derive(Clone, Debug)]
pub struct RawObject {
    text: String,
    fields: Vec<(Key, Range<usize>)>,
}

impl RawObject {
    /// Parse `text`, which must be one JSON object (errors are serde_json's; callers that need
    /// a friendlier message parse the text again as a `Value` to describe it).
    pub fn parse(text: String) -> Result<RawObject, serde_json::Error> {
        let fields = Self::read_fields(&text)?;
        Ok(RawObject { text, fields })
    }

    /// [`RawObject::parse`], handing the text back when it is not one JSON object.
    pub fn parse_or_return(text: String) -> Result<RawObject, String> {
        Self::parse_typed(text, None)
    }

    /// [`RawObject::parse_or_return`] that reads a puzzle's fields into `typed` on the way
    /// (see [`scan::object_fields`]).
    pub(super) fn parse_typed(
        text: String,
        typed: Option<&mut Typed>,
    ) -> Result<RawObject, String> {
        // The common shape by the byte scanner; anything else (and every error) by serde_json.
        if let Some(fields) = scan::object_fields(&text, Key::Span, typed) {
            return Ok(RawObject { text, fields });
        }
        match Self::read_fields(&text) {
            Ok(fields) => Ok(RawObject { text, fields }),
            Err(_) => Err(text),
        }
    }

    fn read_fields(text: &str) -> Result<Vec<(Key, Range<usize>)>, serde_json::Error> {
        if let Some(fields) = scan::object_fields(text, Key::Span, None) {
            return Ok(fields);
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let fields = Fields { base: text }.deserialize(&mut de)?;
        de.end()?;
        Ok(fields)
    }

    /// The object's text, as read.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn key<'a>(&'a self, key: &'a Key) -> &'a str {
        match key {
            Key::Span(range) => &self.text[range.clone()],
            Key::Owned(text) => text,
        }
    }

    /// The keys in input order, each with its value's range.
    fn entries(&self) -> impl DoubleEndedIterator<Item = (&str, &Range<usize>)> {
        self.fields.iter().map(|(k, range)| (self.key(k), range))
    }

    /// The JSON text of `key`'s value (the last one if the key is repeated), if present.
    pub fn raw(&self, key: &str) -> Option<&str> {
        self.entries()
            .rev()
            .find(|&(k, _)| k == key)
            .map(|(_, range)| &self.text[range.clone()])
    }

    /// `key`'s value, parsed.
    pub fn get(&self, key: &str) -> Option<Value> {
        self.raw(key).and_then(|raw| serde_json::from_str(raw).ok())
    }

    /// The first key given twice, if any (a reader that keeps one value would hide the other).
    pub fn repeated_key(&self) -> Option<&str> {
        if self.fields.len() > 32 {
            return self.repeated_key_sorted();
        }
        // The key whose second occurrence comes first: a puzzle has a few keys, and comparing
        // each with those before it costs less than sorting a copy.
        (1..self.fields.len()).find_map(|second| {
            let key = self.key(&self.fields[second].0);
            self.fields[..second]
                .iter()
                .any(|(k, _)| self.key(k) == key)
                .then_some(key)
        })
    }

    fn repeated_key_sorted(&self) -> Option<&str> {
        let mut keys: Vec<(&str, usize)> = self
            .entries()
            .enumerate()
            .map(|(i, (k, _))| (k, i))
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
        self.write_with_extra(out, &Extra::from_map(extra)?)
    }

    /// [`RawObject::write_with`] with the new values already written as JSON text: no tree of
    /// values is built.
    pub fn write_with_extra<W: Write>(&self, out: &mut W, extra: &Extra) -> std::io::Result<()> {
        out.write_all(b"{")?;
        let mut first = true;
        let mut separator = |out: &mut W| match std::mem::replace(&mut first, false) {
            true => Ok(()),
            false => out.write_all(b","),
        };
        // Every field as given (the puzzle reader refuses a key given twice).
        for (key, range) in self.entries() {
            separator(out)?;
            serde_json::to_writer(&mut *out, key)?;
            out.write_all(b":")?;
            match extra.get(key) {
                Some(value) => out.write_all(value)?,
                None => write_compact(out, &self.text[range.clone()])?,
            }
        }
        for (key, value) in extra.entries() {
            if self.raw(key).is_none() {
                separator(out)?;
                serde_json::to_writer(&mut *out, key)?;
                out.write_all(b":")?;
                out.write_all(value)?;
            }
        }
        out.write_all(b"}\n")
    }
}

/// Keys to set on an object as it is written back, in order, each value kept as compact JSON
/// text. Cleared and refilled, one serves every line of a stream without allocating.
#[derive(Clone, Debug, Default)]
pub struct Extra {
    text: Vec<u8>,
    fields: Vec<(Cow<'static, str>, Range<usize>)>,
}

impl Extra {
    /// No keys.
    pub fn new() -> Self {
        Self::default()
    }

    /// Remove every key.
    pub fn clear(&mut self) {
        self.text.clear();
        self.fields.clear();
    }

    /// Set `key` to `value` (a key set again keeps its first place and takes the new value,
    /// as in a map).
    pub fn set<T: Serialize + ?Sized>(
        &mut self,
        key: impl Into<Cow<'static, str>>,
        value: &T,
    ) -> serde_json::Result<()> {
        let start = self.text.len();
        serde_json::to_writer(&mut self.text, value)?;
        let range = start..self.text.len();
        let key = key.into();
        match self.fields.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => *old = range,
            None => self.fields.push((key, range)),
        }
        Ok(())
    }

    /// The keys and values of `map`, in its order.
    pub fn from_map(map: &Map<String, Value>) -> serde_json::Result<Self> {
        let mut extra = Extra::new();
        for (key, value) in map {
            extra.set(key.clone(), value)?;
        }
        Ok(extra)
    }

    /// The keys as a map of values, in order (for writers that build a tree anyway).
    pub fn to_map(&self) -> Map<String, Value> {
        self.entries()
            .map(|(k, v)| {
                let value = serde_json::from_slice(v).expect("written as JSON by `set`");
                (k.to_string(), value)
            })
            .collect()
    }

    /// The JSON text of `key`'s value, if set.
    pub fn get(&self, key: &str) -> Option<&[u8]> {
        self.entries().find(|&(k, _)| k == key).map(|(_, v)| v)
    }

    /// The keys in order, each with its value's JSON text.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.fields
            .iter()
            .map(|(k, range)| (k.as_ref(), &self.text[range.clone()]))
    }
}
/// Write JSON text without the blank space outside its strings.
fn write_compact<W: Write>(out: &mut W, json: &str) -> std::io::Result<()> {
    let bytes = json.as_bytes();
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    if !bytes.iter().any(|&b| blank(b)) {
        return out.write_all(bytes);
    }
    // Kept bytes gather in a buffer on the stack: a few writes, not one per run of them.
    let mut kept = [0u8; 512];
    let mut len = 0;
    let (mut in_string, mut escaped) = (false, false);
    for &b in bytes {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if blank(b) {
            continue;
        }
        kept[len] = b;
        len += 1;
        if len == kept.len() {
            out.write_all(&kept)?;
            len = 0;
        }
    }
    out.write_all(&kept[..len])
}

/// Reads an object's keys and the ranges of their values within `base`.
struct Fields<'a> {
    base: &'a str,
}

impl<'de> DeserializeSeed<'de> for Fields<'de> {
    type Value = Vec<(Key, Range<usize>)>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Fields<'de> {
    type Value = Vec<(Key, Range<usize>)>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields = Vec::with_capacity(16);
        let place = |text: &str| text.as_ptr() as usize - self.base.as_ptr() as usize;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let key = match key {
                // A key without escapes borrows from `base`: its place is the pointers'
                // difference, as for the values.
                KeyText::Borrowed(text) => Key::Span(place(text)..place(text) + text.len()),
                KeyText::Owned(text) => Key::Owned(text.into_boxed_str()),
            };
            let raw: &'de RawValue = map.next_value()?;
            let start = place(raw.get());
            fields.push((key, start..start + raw.get().len()));
        }
        Ok(fields)
    }
}

/// A key as the deserializer hands it: borrowed from the input when it has no escapes.
enum KeyText<'de> {
    Borrowed(&'de str),
    Owned(String),
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = KeyText<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = KeyText<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(KeyText::Borrowed(v))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(KeyText::Owned(v.to_string()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(KeyText::Owned(v))
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
    fn keys_with_escapes_are_read_unescaped() {
        let object = RawObject::parse(r#"{"a\u0062": 1, "c": 2, "ab": 3}"#.into()).unwrap();
        assert_eq!(object.raw("c"), Some("2"));
        assert_eq!(object.repeated_key(), Some("ab"));
        assert_eq!(
            line(&object, json!({"c": 4})),
            "{\"ab\":1,\"c\":4,\"ab\":3}\n"
        );
        let many: Vec<String> = (0..40).map(|i| format!("\"k{}\": {i}", i % 39)).collect();
        let object = RawObject::parse(format!("{{{}}}", many.join(","))).unwrap();
        assert_eq!(object.repeated_key(), Some("k0"));
    }

    #[test]
    fn extra_values_are_set_in_place_or_appended() {
        let object = RawObject::parse(r#"{"a": [1, 2], "b": null}"#.into()).unwrap();
        let mut extra = Extra::new();
        extra.set("c", &Some([3u8, 4])).unwrap();
        extra.set("b", &true).unwrap();
        extra.set("c", &7).unwrap();
        let mut out = Vec::new();
        object.write_with_extra(&mut out, &extra).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"a\":[1,2],\"b\":true,\"c\":7}\n"
        );
        assert_eq!(
            extra.to_map(),
            json!({"c": 7, "b": true}).as_object().unwrap().clone()
        );
    }

    #[test]
    fn long_values_are_compacted_whole() {
        // Longer than the compacting buffer, with blank space inside and outside strings.
        let items: Vec<String> = (0..300)
            .map(|i| format!("{{ \"k\" : \"a {i}\\\" \" }}"))
            .collect();
        let text = format!("{{\"x\": [ {} ] }}", items.join(" ,\n "));
        let object = RawObject::parse(text.clone()).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(line(&object, json!({})), format!("{value}\n"));
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
