package migrations

// HasStatements exposes hasStatements to the external tests.
var HasStatements = hasStatements

// ApplyUpTo exposes applyUpTo, so a test can fill a database of an older version before
// the migration it checks.
var ApplyUpTo = applyUpTo
