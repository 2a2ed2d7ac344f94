package migrations

// HasStatements exposes hasStatements to the external tests.
var HasStatements = hasStatements
