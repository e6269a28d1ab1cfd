//! What every extractor that wraps the value it read has: `into_inner`,
//! `Deref` and `DerefMut`, written once.

/// Gives the tuple struct `$name<T>(pub T)` an `into_inner` documented as
/// `$doc`, and `Deref`/`DerefMut` to its `T`.
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
    };
}

pub(crate) use wraps_value;
