//! What every extractor that wraps the value it read has: `into_inner`,
//! `Deref`, `DerefMut` and [`Upgrade`](crate::Upgrade) from an older
//! version's type, written once.

/// Gives the tuple struct `$name<T>(pub T)` an `into_inner` documented as
/// `$doc`, `Deref`/`DerefMut` to its `T`, and `Upgrade` from `$name<Old>`.
macro_rules! wraps_value {
    ($name:ident, $doc:literal) => {
        impl<T> $name<T> {
            #[doc = $doc]
            pub fn into_inner(self) -> T {
                self.0
            }
        }

        impl<T> std::ops::Deref for $name<T> {
            type Target = T;

            #[inline]
            fn deref(&self) -> &T {
                &self.0
            }
        }

        impl<T> std::ops::DerefMut for $name<T> {
            #[inline]
            fn deref_mut(&mut self) -> &mut T {
                &mut self.0
            }
        }

        impl<Old, New: From<Old>> $crate::Upgrade<$name<New>> for $name<Old> {
            fn upgrade(self) -> $name<New> {
                $name(New::from(self.0))
            }
        }
    };
}

pub(crate) use wraps_value;
