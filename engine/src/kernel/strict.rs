//! A deserializer wrapper that reads structs only from JSON objects.
//!
//! serde's derived structs also accept a sequence of their fields' values, so
//! `"settings": [0, 0, 0, true]` would silently mean a zero grace period with backfill on.
//! [`Strict`] asks the underlying deserializer for a map wherever a struct is expected, at
//! every depth, so such input is a type error with its path like any other.

use core::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// Wraps a deserializer: structs must be maps; everything else is passed through.
pub struct Strict<D>(pub D);

/// A visitor whose nested deserializers are wrapped in [`Strict`] too.
struct Wrap<V>(V);

macro_rules! forward {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.$method(Wrap(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Wrap(v))
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Wrap(v))
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Wrap(v))
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, Wrap(v))
    }
    /// The point of the wrapper: a struct is read from a map, never from a sequence.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Wrap(v))
    }
    /// An enum is a string (or an object for a variant with data); any other JSON value is a
    /// type error listing the variants, not a syntax error.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(EnumOnly { inner: Wrap(v), variants })
    }
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! visit {
    ($($method:ident: $t:ty)*) => {$(
        fn $method<E: de::Error>(self, v: $t) -> Result<Self::Value, E> {
            self.0.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }
    visit! {
        visit_bool: bool visit_i8: i8 visit_i16: i16 visit_i32: i32 visit_i64: i64 visit_i128: i128
        visit_u8: u8 visit_u16: u16 visit_u32: u32 visit_u64: u64 visit_u128: u128
        visit_f32: f32 visit_f64: f64 visit_char: char visit_str: &str visit_borrowed_str: &'de str
        visit_bytes: &[u8] visit_borrowed_bytes: &'de [u8]
    }
    fn visit_string<E: de::Error>(self, v: alloc::string::String) -> Result<Self::Value, E> {
        self.0.visit_string(v)
    }
    fn visit_byte_buf<E: de::Error>(self, v: alloc::vec::Vec<u8>) -> Result<Self::Value, E> {
        self.0.visit_byte_buf(v)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.visit_some(Strict(d))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.visit_newtype_struct(Strict(d))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.0.visit_seq(Wrap(seq))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(Wrap(map))
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.0.visit_enum(Wrap(data))
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Wrap<S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict(d))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Wrap<A> {
    type Error = A::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Wrap(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Wrap<A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Wrap(seed))
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(Wrap(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Wrap<A> {
    type Error = A::Error;
    type Variant = Wrap<A::Variant>;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self::Variant), A::Error> {
        let (v, rest) = self.0.variant_seed(Wrap(seed))?;
        Ok((v, Wrap(rest)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Wrap<A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Wrap(seed))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(v))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap(v))
    }
}

/// Reads an enum from a string or an object; reports any other value as a wrong type.
struct EnumOnly<V> {
    inner: Wrap<V>,
    variants: &'static [&'static str],
}

impl<'de, V: Visitor<'de>> Visitor<'de> for EnumOnly<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("one of ")?;
        for (i, v) in self.variants.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "\"{v}\"")?;
        }
        Ok(())
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        self.inner.visit_enum(de::value::StrDeserializer::<E>::new(s))
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
        self.inner.visit_enum(de::value::BorrowedStrDeserializer::<E>::new(s))
    }
    fn visit_string<E: de::Error>(self, s: alloc::string::String) -> Result<Self::Value, E> {
        self.inner.visit_enum(de::value::StringDeserializer::<E>::new(s))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_enum(de::value::MapAccessDeserializer::new(map))
    }
}

/// Reads one `T` from JSON text strictly (structs only from objects, nothing after it): a
/// problem at the path where it went wrong, or "data after the `what`".
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, crate::Problem> {
    use alloc::string::{String, ToString};
    let mut de = serde_json::Deserializer::from_str(text);
    let v = serde_path_to_error::deserialize(Strict(&mut de)).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        crate::Problem::error(path, e.into_inner().to_string())
    })?;
    de.end().map_err(|e| crate::Problem::error("", alloc::format!("data after the {what}: {e}")))?;
    Ok(v)
}
