//! Errors of configuring caches and policies.

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheError {
    #[error("cache geometry: {0}")]
    Geometry(String),
    #[error("policy '{spec}': {what}")]
    Policy { spec: String, what: String },
}
