// Package filestore owns the blobs users upload (billing documents, chat attachments, call
// recordings, task attachments): where they are kept, the one set of rules every upload
// passes (a strict key syntax, a size limit, a content type sniffed from the bytes and an
// allow-list of types), and the time-limited links through which browsers download them.
//
// A Store keeps the bytes either in a directory under the data dir (NewDir) or in an
// S3-compatible bucket (NewS3, configured by one s3:// URL, see ParseS3URL). Callers keep
// what Put returns (size, sniffed type, SHA-256), with the file's name and key, in the Meta
// their rows embed; the store holds no metadata of its own, so both backends behave the same.
//
// Put spools each body to a temporary file before anything becomes visible, so a failed,
// refused or cancelled upload leaves nothing behind: no partial object, no temporary file.
package filestore
