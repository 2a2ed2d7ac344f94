package automation

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// A run is found by what it carried: its lists take q, words that must each be a term of
// the run (workflow_run_terms, indexed by project and term). A run's terms are cut when it
// is made from its trigger payload (kind input) and when it fails from its error (kind
// error): each string or number value, nested at most maxTermDepth deep, gives itself whole
// and each of its words, lower-cased, without the punctuation around them. So "Order
// A-1001 for Ivan" is found by "a-1001", "1001", "ivan" or "Order A-1001 for Ivan"'s words.
const (
	// maxTermRunes bounds one term; a longer value or word is not a term.
	maxTermRunes = 64
	// maxRunTerms bounds the terms of one kind of a run: what a webhook's payload costs the
	// intake, past which its later values are not searchable.
	maxRunTerms  = 200
	maxTermDepth = 6
	// MaxSearchWords bounds q's words; MaxSearchLength its length.
	MaxSearchWords  = 8
	MaxSearchLength = 200
)

// Kinds of run term.
const (
	termInput = "input"
	termError = "error"
)

// RunTerm is one term a run is found by, once: a term of its error that its input has
// already is kept as the input's, and stays when the error's terms go.
type RunTerm struct {
	RunID     uuid.UUID `gorm:"primaryKey"`
	Term      string    `gorm:"primaryKey"`
	Kind      string
	ProjectID uuid.UUID
}

func (RunTerm) TableName() string { return "workflow_run_terms" }

// termSet collects a run's terms, each once, up to maxRunTerms.
type termSet struct {
	seen  map[string]bool
	terms []string
}

func (s *termSet) add(term string) {
	if term == "" || utf8.RuneCountInString(term) > maxTermRunes || s.seen[term] || len(s.terms) >= maxRunTerms {
		return
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[term] = true
	s.terms = append(s.terms, term)
}

// text adds a value's whole text and its words.
func (s *termSet) text(v string) {
	s.add(normalTerm(v))
	for _, w := range strings.FieldsFunc(strings.ToLower(v), notWordRune) {
		s.add(w)
	}
}

// value adds the terms of a JSON value: strings and numbers, in objects and lists.
func (s *termSet) value(v any, depth int) {
	if depth > maxTermDepth {
		return
	}
	switch v := v.(type) {
	case string:
		s.text(v)
	case float64:
		s.add(strconv.FormatFloat(v, 'f', -1, 64))
	case map[string]any:
		for _, e := range v {
			s.value(e, depth+1)
		}
	case []any:
		for _, e := range v {
			s.value(e, depth+1)
		}
	}
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// normalTerm is a whole value or a searched word as a term: lower-cased, trimmed of
// punctuation and space at its ends.
func normalTerm(v string) string { return strings.TrimFunc(strings.ToLower(v), notWordRune) }

// inputTerms are the terms of a trigger payload.
func inputTerms(payload map[string]any) []string {
	var s termSet
	s.value(payload, 0)
	return s.terms
}

// storeTerms writes a run's terms of a kind; terms it has already are kept.
func storeTerms(tx *gorm.DB, r *Run, kind string, terms []string) error {
	if len(terms) == 0 {
		return nil
	}
	rows := make([]RunTerm, len(terms))
	for i, t := range terms {
		rows[i] = RunTerm{RunID: r.ID, Kind: kind, Term: t, ProjectID: r.ProjectID}
	}
	return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&rows).Error
}

// storeErrorTerms writes the terms of a failed run's error.
func storeErrorTerms(tx *gorm.DB, runID uuid.UUID, text string) error {
	var r Run
	if err := tx.Select("id", "project_id").Take(&r, "id = ?", runID).Error; err != nil {
		return err
	}
	var s termSet
	s.text(text)
	return storeTerms(tx, &r, termError, s.terms)
}

// searchWords are q's words as terms. Errors: invalid (q: too long, too many words).
func searchWords(q string) ([]string, error) {
	if utf8.RuneCountInString(q) > MaxSearchLength {
		return nil, models.Invalid("invalid_run_search", "q")
	}
	var words []string
	for _, f := range strings.Fields(q) {
		if w := normalTerm(f); w != "" && !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	if len(words) > MaxSearchWords {
		return nil, models.Invalid("invalid_run_search", "q")
	}
	return words, nil
}

// searchAlias names the term row that drives a search (search).
const searchAlias = "run_term"

// search narrows q, whose runs table is workflow_runs, to the project's runs having every
// word as a term (a word that is a run id also finds that run), and answers the column the
// page must be ordered by. One word, the longest (likely the rarest), drives the query: its
// rows of the index (project_id, term, run_id), joined to their runs, already come in run
// order, so a page of a word most runs carry stops at its size, and one of a rare word
// reads no more than its runs. Each other word is a lookup of the key (run_id, term).
func search(q *gorm.DB, projectID uuid.UUID, words []string) (*gorm.DB, string) {
	driving := ""
	for _, w := range words {
		if _, err := uuid.Parse(w); err != nil && len(w) > len(driving) {
			driving = w
		}
	}
	order := "workflow_runs.id"
	if driving != "" {
		q = q.Joins("JOIN workflow_run_terms "+searchAlias+" ON "+searchAlias+".run_id = workflow_runs.id AND "+
			searchAlias+".project_id = ? AND "+searchAlias+".term = ?", projectID, driving)
		order = searchAlias + ".run_id"
	}
	for _, w := range words {
		if w == driving {
			continue
		}
		has := q.Session(&gorm.Session{NewDB: true}).Model(&RunTerm{}).Select("1").
			Where("workflow_run_terms.run_id = "+order+" AND workflow_run_terms.term = ?", w)
		if id, err := uuid.Parse(w); err == nil {
			q = q.Where("(workflow_runs.id = ? OR EXISTS (?))", id, has)
		} else {
			q = q.Where("EXISTS (?)", has)
		}
	}
	return q, order
}
