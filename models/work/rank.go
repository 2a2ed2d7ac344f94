package work

import (
	"strings"
)

// Ranks order the tasks of a column and the items of a checklist without renumbering: a
// rank is a base-36 fraction in (0, 1) written as its digits after the point, without
// trailing zeros ("i" is one half), so ranks compare as plain byte strings and there is
// always a rank between two others. Appending and prepending step by 36^-5 on the first
// ten digits, so a column that only grows keeps ranks of at most ten characters; inserting
// between two neighbours takes their midpoint, which grows by about one character per six
// inserts into the same gap. The scheme is David Greenspan's fractional indexing, without
// its variable-length integer part.
const rankDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

const (
	rankWidth = 10
	rankStep  = 60466176 // 36^5
)

// rankSpan is 36^rankWidth: the first ten digits of a rank read as an integer are below it.
var rankSpan = func() int64 {
	n := int64(1)
	for range rankWidth {
		n *= int64(len(rankDigits))
	}
	return n
}()

// firstRank is the rank of the first item of an empty list: one half.
const firstRank = "i"

// rankAfter is a rank after a (the last rank of a list).
func rankAfter(a string) string {
	if v := rankHead(a) + rankStep; v < rankSpan {
		return formatRank(v)
	}
	return rankBetween(a, "")
}

// rankBefore is a rank before b (the first rank of a list).
func rankBefore(b string) string {
	if v := rankHead(b) - rankStep; v > 0 {
		return formatRank(v)
	}
	return rankBetween("", b)
}

// rankBetween is a rank strictly between a and b, where a < b; "" stands for the start (as
// a) or the end (as b) of the list.
func rankBetween(a, b string) string {
	if b != "" {
		n := 0
		for n < len(b) && digitAt(a, n) == b[n] {
			n++
		}
		if n > 0 {
			return b[:n] + rankBetween(tail(a, n), b[n:])
		}
	}
	da := 0
	if a != "" {
		da = strings.IndexByte(rankDigits, a[0])
	}
	db := len(rankDigits)
	if b != "" {
		db = strings.IndexByte(rankDigits, b[0])
	}
	if db-da > 1 {
		return string(rankDigits[(da+db+1)/2])
	}
	if len(b) > 1 {
		return b[:1]
	}
	return string(rankDigits[da]) + rankBetween(tail(a, 1), "")
}

// digitAt is the n-th digit of r, where a missing digit is a zero.
func digitAt(r string, n int) byte {
	if n < len(r) {
		return r[n]
	}
	return rankDigits[0]
}

func tail(r string, n int) string {
	if n >= len(r) {
		return ""
	}
	return r[n:]
}

// rankHead reads the first rankWidth digits of r as an integer, padding with zeros.
func rankHead(r string) int64 {
	var v int64
	for i := range rankWidth {
		v = v*int64(len(rankDigits)) + int64(strings.IndexByte(rankDigits, digitAt(r, i)))
	}
	return v
}

// formatRank writes v (0 < v < rankSpan) as rankWidth digits without trailing zeros.
func formatRank(v int64) string {
	b := make([]byte, rankWidth)
	for i := rankWidth - 1; i >= 0; i-- {
		b[i] = rankDigits[v%int64(len(rankDigits))]
		v /= int64(len(rankDigits))
	}
	return strings.TrimRight(string(b), "0")
}
