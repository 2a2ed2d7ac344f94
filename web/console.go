package web

import (
	"embed"
	"io/fs"
)

// consoleDist is the console's build (web/console, `make build`); on a clone where it was
// never built it holds only the folder's .gitignore.
//
//go:embed all:console/dist
var consoleDist embed.FS

// Console is the built console: index.html at its root and hashed files under assets/,
// each script and stylesheet beside a gzip copy (name.gz). It has no index.html when the
// console was not built.
var Console = func() fs.FS {
	dist, err := fs.Sub(consoleDist, "console/dist")
	if err != nil {
		panic(err)
	}
	return dist
}()
