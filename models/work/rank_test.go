package work

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRanksStayOrderedWhateverTheInserts inserts at random places of a list, at its ends
// and into one gap again and again, and checks after each insert that the ranks are
// strictly increasing, canonical (no trailing zero) and short where they should be.
func TestRanksStayOrderedWhateverTheInserts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	list := []string{firstRank}
	insert := func(i int) {
		var rank string
		switch {
		case i == 0:
			rank = rankBefore(list[0])
		case i == len(list):
			rank = rankAfter(list[len(list)-1])
		default:
			rank = rankBetween(list[i-1], list[i])
		}
		list = slices.Insert(list, i, rank)
		if (i > 0 && list[i-1] >= rank) || (i+1 < len(list) && rank >= list[i+1]) || rank == "" || rank[len(rank)-1] == '0' {
			t.Fatalf("insert at %d of %d gave %q between %q and %q", i, len(list)-1, rank, at(list, i-1), at(list, i+1))
		}
	}
	for range 2000 {
		insert(r.IntN(len(list) + 1))
	}
	for range 200 {
		insert(1) // always into the same gap
	}
	for range 5000 {
		insert(len(list))
	}
	for range 5000 {
		insert(0)
	}
	if last := list[len(list)-1]; len(last) > rankWidth {
		t.Fatalf("appending grew ranks to %q", last)
	}
	if first := list[0]; len(first) > rankWidth {
		t.Fatalf("prepending grew ranks to %q", first)
	}
	if !slices.IsSorted(list) {
		t.Fatal("ranks are not sorted")
	}
}

func at(list []string, i int) string {
	if i < 0 || i >= len(list) {
		return ""
	}
	return list[i]
}
