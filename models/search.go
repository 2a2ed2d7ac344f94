package models

import "strings"

// LikeContains is a LIKE pattern, for `LIKE ? ESCAPE '\'`, matching text that contains q,
// with LIKE's wildcards in q escaped so that % and _ match only themselves.
func LikeContains(q string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q) + "%"
}
