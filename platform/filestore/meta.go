package filestore

import (
	"path"
	"strings"
	"unicode/utf8"
)

// Meta is what a row keeps of the stored file it stands for (a payment document, a task
// attachment, a chat attachment, a call recording), since the store keeps no metadata of
// its own. Rows embed it with gorm's embedded tag, so its columns are the row's own:
// file_name, content_type, size_bytes, sha256 and storage_key.
type Meta struct {
	// FileName is the name the file was uploaded under (see BaseName), offered for saving.
	FileName string
	// ContentType, SizeBytes and SHA256 are what Put measured of the bytes (see Object).
	ContentType string
	SizeBytes   int64
	SHA256      string `gorm:"column:sha256"`
	// StorageKey is the object's key in the store.
	StorageKey string
}

// Fill keeps what Put answered for the stored object.
func (m *Meta) Fill(obj Object) {
	m.ContentType, m.SizeBytes, m.SHA256 = obj.ContentType, obj.Size, obj.SHA256
}

// Download offers the file for saving under its name, served as its sniffed type.
func (m Meta) Download() Download {
	return Download{Name: m.FileName, ContentType: m.ContentType}
}

// maxFileName is the longest file name a row keeps, in characters.
const maxFileName = 255

// BaseName is the file name an upload keeps: the last segment of the name the client sent
// (either slash separates, so a Windows path gives its file name), trimmed. It reports
// false for a name that has no such segment or is longer than 255 characters.
func BaseName(name string) (string, bool) {
	name = path.Base(strings.ReplaceAll(strings.TrimSpace(name), `\`, "/"))
	return name, name != "." && name != "/" && utf8.RuneCountInString(name) <= maxFileName
}
