package filestore_test

import (
	"strings"
	"testing"

	"agencyhub/platform/filestore"
)

func TestAnUploadKeepsTheBaseNameOfWhatTheClientSent(t *testing.T) {
	cases := []struct {
		sent, kept string
		ok         bool
	}{
		{" invoice.pdf ", "invoice.pdf", true},
		{`C:\Users\anna\Scans\act.pdf`, "act.pdf", true},
		{"../../etc/passwd", "passwd", true},
		{"счёт.pdf", "счёт.pdf", true},
		{strings.Repeat("я", 255), strings.Repeat("я", 255), true},
		{strings.Repeat("я", 256), "", false},
		{"", "", false},
		{"/", "", false},
		{`\`, "", false},
	}
	for _, c := range cases {
		kept, ok := filestore.BaseName(c.sent)
		if ok != c.ok || ok && kept != c.kept {
			t.Errorf("BaseName(%q) = %q, %v; want %q, %v", c.sent, kept, ok, c.kept, c.ok)
		}
	}
}
