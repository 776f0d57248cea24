//! One policy per file.
