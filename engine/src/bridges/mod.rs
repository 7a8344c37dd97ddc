//! Bridges: other tools' formats in and out. AWS histories and live state ([`aws`]), Kueue
//! configurations ([`kueue`]) and YAML ([`yaml`]), cluster traces ([`trace`]), CloudFormation
//! and Kueue exports ([`export`]), merging an import into a scenario ([`merge`]) and the checks
//! every import shares ([`import_check`]). Each import reads its input, maps it to the model and
//! assembles a scenario; bridges use the kernel and never the studies.

#[cfg(feature = "serde")]
pub mod aws;
#[cfg(feature = "serde")]
pub mod export;
#[cfg(feature = "serde")]
pub mod import_check;
#[cfg(feature = "serde")]
pub mod kueue;
pub mod merge;
#[cfg(feature = "serde")]
pub mod trace;
#[cfg(feature = "yaml")]
pub mod yaml;
