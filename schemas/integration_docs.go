package schemas

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// integrationDocFiles are the integration documents: docs/integrations/index.json (the
// metadata, in listing order) and one <public_slug>.md per entry.
//
//go:embed docs/integrations/*.md docs/integrations/index.json
var integrationDocFiles embed.FS

// PatchContractSlug is the document that describes the patch format itself.
const PatchContractSlug = "workflow-ai-patch-contract"

// IntegrationDoc is one markdown document about an integration or an action family.
type IntegrationDoc struct {
	Slug     string   `json:"public_slug"`
	Title    string   `json:"title"`
	Summary  string   `json:"summary"`
	Keywords []string `json:"keywords"`
	// ActionTypeKeys and DependencyTypeKeys are the catalog entries the document covers.
	ActionTypeKeys     []string `json:"action_type_keys"`
	DependencyTypeKeys []string `json:"dependency_type_keys"`
	// ProviderKey names the provider this is the main document of; empty for most.
	ProviderKey string `json:"provider_key"`
	Markdown    []byte `json:"-"`
	// Search tokens of the title, the keywords (with the slug and catalog keys) and the body.
	titleTokens, keywordTokens map[string]bool
	bodyTokens                 map[string]int
}

// IntegrationDocs are the loaded documents in index order.
type IntegrationDocs struct {
	docs   []*IntegrationDoc
	bySlug map[string]*IntegrationDoc
}

var (
	integrationDocsOnce sync.Once
	integrationDocs     *IntegrationDocs
	integrationDocsErr  error
)

// LoadIntegrationDocs parses the embedded documents once and checks them against the
// catalog: every key a document names must exist.
func LoadIntegrationDocs() (*IntegrationDocs, error) {
	integrationDocsOnce.Do(func() {
		catalog, err := LoadCatalog()
		if err != nil {
			integrationDocsErr = err
			return
		}
		integrationDocs, integrationDocsErr = parseIntegrationDocs(integrationDocFiles, catalog)
	})
	return integrationDocs, integrationDocsErr
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func parseIntegrationDocs(files fs.FS, catalog *Catalog) (*IntegrationDocs, error) {
	const dir = "docs/integrations/"
	var entries []*IntegrationDoc
	if err := decodeStrict(files, dir+"index.json", &entries); err != nil {
		return nil, err
	}
	out := &IntegrationDocs{bySlug: map[string]*IntegrationDoc{}}
	for _, d := range entries {
		switch {
		case !slugPattern.MatchString(d.Slug) || out.bySlug[d.Slug] != nil:
			return nil, fmt.Errorf("%sindex.json: slug %q must be unique kebab-case", dir, d.Slug)
		case d.Title == "" || d.Summary == "":
			return nil, fmt.Errorf("%sindex.json: %s: title and summary are required", dir, d.Slug)
		}
		for _, k := range d.ActionTypeKeys {
			if _, ok := catalog.Action(k); !ok {
				return nil, fmt.Errorf("%sindex.json: %s: action type %q is not in the catalog", dir, d.Slug, k)
			}
		}
		for _, k := range d.DependencyTypeKeys {
			if _, ok := catalog.Dependency(k); !ok {
				return nil, fmt.Errorf("%sindex.json: %s: dependency type %q is not in the catalog", dir, d.Slug, k)
			}
		}
		if d.ProviderKey != "" &&
			!slices.ContainsFunc(catalog.Dependencies(), func(t *DependencyType) bool { return t.ProviderKey == d.ProviderKey }) {
			return nil, fmt.Errorf("%sindex.json: %s: provider %q has no dependency type in the catalog", dir, d.Slug, d.ProviderKey)
		}
		md, err := fs.ReadFile(files, dir+d.Slug+".md")
		if err != nil {
			return nil, fmt.Errorf("%sindex.json: %s: %w", dir, d.Slug, err)
		}
		d.Markdown = md
		d.titleTokens = tokenSet(d.Title)
		d.keywordTokens = tokenSet(
			strings.Join(append(append(append([]string{d.Slug}, d.Keywords...), d.ActionTypeKeys...), d.DependencyTypeKeys...), " "),
		)
		d.bodyTokens = map[string]int{}
		for _, t := range tokens(string(md)) {
			d.bodyTokens[t]++
		}
		out.docs = append(out.docs, d)
		out.bySlug[d.Slug] = d
	}
	mds, err := fs.Glob(files, dir+"*.md")
	if err != nil {
		return nil, err
	}
	for _, name := range mds {
		if slug := strings.TrimSuffix(strings.TrimPrefix(name, dir), ".md"); out.bySlug[slug] == nil {
			return nil, fmt.Errorf("%s is not listed in %sindex.json", name, dir)
		}
	}
	if out.bySlug[PatchContractSlug] == nil {
		return nil, fmt.Errorf("%sindex.json: the patch contract %s is missing", dir, PatchContractSlug)
	}
	return out, nil
}

// All lists the documents in index order.
func (d *IntegrationDocs) All() []*IntegrationDoc { return slices.Clone(d.docs) }

// Get finds a document by its public slug.
func (d *IntegrationDocs) Get(slug string) (*IntegrationDoc, bool) {
	doc, ok := d.bySlug[slug]
	return doc, ok
}

// IntegrationDocMatch is a search hit.
type IntegrationDocMatch struct {
	Doc   *IntegrationDoc
	Score int
	// Snippet is the first line of the document that holds a query word.
	Snippet string
}

// Score weights of a query word found in each part of a document.
const (
	titleWeight   = 5
	keywordWeight = 3
	bodyWeight    = 1
	bodyCap       = 5 // occurrences in the body counted at most
)

// Search ranks the documents for a query: each query word scores in the title, the keywords
// (slug and catalog keys included) and the body, and a word's score counts once per
// document. Documents without any hit are left out; ties keep index order. An empty query
// lists the documents in index order. limit caps the answer.
func (d *IntegrationDocs) Search(query string, limit int) []IntegrationDocMatch {
	words := queryWords(query)
	var out []IntegrationDocMatch
	for _, doc := range d.docs {
		m := IntegrationDocMatch{Doc: doc}
		for _, w := range words {
			if doc.titleTokens[w] {
				m.Score += titleWeight
			}
			if doc.keywordTokens[w] {
				m.Score += keywordWeight
			}
			m.Score += bodyWeight * min(doc.bodyTokens[w], bodyCap)
		}
		if len(words) > 0 && m.Score == 0 {
			continue
		}
		m.Snippet = snippet(doc, words)
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// Mentions tells whether a query word names the text (an integration's name or type), for
// narrowing a project's integrations to a query.
func Mentions(query, text string) bool {
	set := tokenSet(text)
	for _, w := range queryWords(query) {
		if set[w] {
			return true
		}
	}
	return false
}

// stopWords are query words too common to rank by.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "the": true, "to": true, "of": true, "in": true, "on": true,
	"for": true, "with": true, "from": true, "by": true, "or": true, "is": true, "it": true, "be": true,
	"when": true, "how": true, "i": true, "we": true, "my": true, "our": true, "want": true, "need": true,
	"into": true, "at": true, "as": true, "this": true, "that": true, "do": true, "can": true,
}

func queryWords(query string) []string {
	var out []string
	for _, t := range tokens(query) {
		if !stopWords[t] && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// tokens splits text into lower-case words; dotted and underscored catalog keys also count
// as their parts (messenger_a.send_message gives messenger, a, send, message and the whole).
func tokens(text string) []string {
	var out []string
	for _, field := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '.' && r != '-'
	}) {
		field = strings.Trim(field, "._-")
		if field == "" {
			continue
		}
		out = append(out, field)
		parts := strings.FieldsFunc(field, func(r rune) bool { return r == '_' || r == '.' || r == '-' })
		if len(parts) > 1 {
			out = append(out, parts...)
		}
	}
	return out
}

func tokenSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, t := range tokens(text) {
		out[t] = true
	}
	return out
}

// snippet is the first non-heading line of the document holding a query word, else the
// summary; at most 240 characters.
func snippet(doc *IntegrationDoc, words []string) string {
	for _, line := range bytes.Split(doc.Markdown, []byte("\n")) {
		text := strings.TrimSpace(string(line))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		set := tokenSet(text)
		if slices.ContainsFunc(words, func(w string) bool { return set[w] }) {
			if r := []rune(text); len(r) > 240 {
				text = string(r[:239]) + "…"
			}
			return text
		}
	}
	return doc.Summary
}

// Provider is one provider of integrations, as the dependency type catalog groups them.
type Provider struct {
	Key string
	// DisplayName is the display name of the provider's first dependency type.
	DisplayName     string
	DependencyTypes []*DependencyType
	// ActionTypeKeys are the action types whose dependency is of one of these types.
	ActionTypeKeys []string
	// SupportedNow tells whether any of those action types is importable.
	SupportedNow bool
	// DocsSlug is the provider's main integration document, "" when there is none yet.
	DocsSlug string
}

// Providers groups the dependency types by provider_key in catalog order, with the action
// types that use them and the document that describes them.
func Providers(catalog *Catalog, docs *IntegrationDocs) []Provider {
	var out []Provider
	index := map[string]int{}
	for _, d := range catalog.Dependencies() {
		i, ok := index[d.ProviderKey]
		if !ok {
			i = len(out)
			index[d.ProviderKey] = i
			out = append(out, Provider{Key: d.ProviderKey, DisplayName: d.DisplayName})
		}
		out[i].DependencyTypes = append(out[i].DependencyTypes, d)
	}
	for i := range out {
		p := &out[i]
		uses := func(key string) bool {
			return slices.ContainsFunc(p.DependencyTypes, func(d *DependencyType) bool { return d.Key == key })
		}
		for _, t := range catalog.Actions() {
			if t.DependencyTypeKey != "" && uses(t.DependencyTypeKey) {
				p.ActionTypeKeys = append(p.ActionTypeKeys, t.Key)
				p.SupportedNow = p.SupportedNow || t.Importable
			}
		}
		for _, doc := range docs.docs {
			if doc.ProviderKey == p.Key {
				p.DocsSlug = doc.Slug
				break
			}
		}
		if p.DocsSlug != "" {
			continue
		}
		for _, doc := range docs.docs {
			if slices.ContainsFunc(doc.DependencyTypeKeys, uses) {
				p.DocsSlug = doc.Slug
				break
			}
		}
	}
	return out
}
