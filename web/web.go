// Package web holds the browser assets the binary serves, embedded in it: the site chat
// widget script, and the console's build (web/console, a Vite app built by `make build`).
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
