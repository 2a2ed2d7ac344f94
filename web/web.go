// Package web holds the browser assets the binary serves, embedded so that running the
// server needs no build step: the site chat widget script.
package web

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
)

// WidgetJS is the site chat widget, served at /site-chat/widget.js.
//
//go:embed widget.js
var WidgetJS []byte

// WidgetETag is the widget's entity tag: a hash of its bytes, so it changes with them.
var WidgetETag = func() string {
	sum := sha256.Sum256(WidgetJS)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
}()
