//! Error types of the library's fallible functions that do not produce [`Diagnostic`]s:
//! each implements `Display` (the message the CLI prints) and `std::error::Error`, and
//! converts into `String` for callers that only print.
//!
//! [`Diagnostic`]: crate::diagnostics::Diagnostic

/// Declares an error type that carries its message.
macro_rules! message_error {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name(pub String);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::error::Error for $name {}

        impl From<$name> for String {
            fn from(e: $name) -> String {
                e.0
            }
        }
    };
}

pub(crate) use message_error;

/// Declares `Display`, `Error` and `From<…> for String` for an enum whose variants all carry
/// their message as a `String` (the first field).
macro_rules! message_enum {
    ($name:ident { $($variant:ident),* $(,)? }) => {
        impl $name {
            /// The message.
            pub fn message(&self) -> &str {
                match self {
                    $($name::$variant(m, ..) => m,)*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.message())
            }
        }

        impl std::error::Error for $name {}

        impl From<$name> for String {
            fn from(e: $name) -> String {
                e.message().to_owned()
            }
        }
    };
}

pub(crate) use message_enum;
