package api_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"agencyhub/migrations/dbtest"
)

// multipartBody is a form with a file part (unless content is nil) and the other fields.
func multipartBody(t testing.TB, name string, content []byte, fields map[string]string) (string, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if content != nil {
		part, err := w.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(content)
	}
	w.Close()
	return b.String(), w.FormDataContentType()
}

// upload posts a document to an action as u.
func (e *env) upload(u user, actionID, name string, content []byte, fields map[string]string) *response {
	e.t.Helper()
	body, contentType := multipartBody(e.t, name, content, fields)
	return e.do(req{method: "POST", path: "/api/v1/payment-actions/" + actionID + "/documents", token: u.token, body: body,
		header: map[string]string{"Content-Type": contentType}})
}

func TestPaymentActionDocuments(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		e := newEnv(t, db)
		f := e.billingFixture("Ada")
		action := e.do(req{method: "POST", path: "/api/v1/projects/" + f.projectID + "/payment-actions/manual", token: f.owner.token,
			body: map[string]any{"client_id": f.clientID, "client_service_id": f.serviceID, "due_date": "2027-01-31"}}).expect(t, http.StatusCreated).str("payment_action_id")
		invoice := []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n")
		sum := sha256.Sum256(invoice)

		created := e.upload(f.owner, action, `C:\scans\invoice 17.pdf`, invoice, map[string]string{"kind": "invoice"}).expect(t, http.StatusCreated)
		t.Run("an upload keeps the file's sniffed type, size and digest under its base name", func(t *testing.T) {
			if created.str("content_type") != "application/pdf" || created.json["size_bytes"] != float64(len(invoice)) || created.str("sha256") != hex.EncodeToString(sum[:]) ||
				created.str("file_name") != "invoice 17.pdf" || created.str("kind") != "invoice" || created.str("created_by") != f.owner.id {
				t.Fatalf("document: %s", created.Body)
			}
		})
		t.Run("get answers a link that downloads the file", func(t *testing.T) {
			got := e.do(req{method: "GET", path: "/api/v1/payment-action-documents/" + created.str("payment_action_document_id"), token: f.owner.token}).expect(t, http.StatusOK)
			link := strings.TrimPrefix(got.str("download_url"), "http://api.test")
			download := e.do(req{method: "GET", path: link}).expect(t, http.StatusOK)
			if !bytes.Equal(download.Body.Bytes(), invoice) || !strings.Contains(download.Header().Get("Content-Disposition"), "invoice%2017.pdf") {
				t.Fatalf("download: %q %v", download.Body, download.Header())
			}
		})
		t.Run("the list has the action's documents; kind defaults to other", func(t *testing.T) {
			e.upload(f.owner, action, "receipt.txt", []byte("Paid 25 000 RUB\n"), nil).expect(t, http.StatusCreated)
			items := e.do(req{method: "GET", path: "/api/v1/payment-actions/" + action + "/documents", token: f.owner.token}).expect(t, http.StatusOK).items()
			if len(items) != 2 || items[0]["kind"] != "invoice" || items[1]["kind"] != "other" || items[1]["content_type"] != "text/plain; charset=utf-8" {
				t.Fatalf("documents: %v", items)
			}
		})
		t.Run("bad uploads store nothing", func(t *testing.T) {
			e.upload(f.owner, action, "setup.pdf", append([]byte("MZ\x90\x00\x03\x00\x00\x00"), make([]byte, 600)...), nil).expect(t, http.StatusBadRequest, "file")
			e.upload(f.owner, action, "big.pdf", append([]byte("%PDF-1.4\n"), make([]byte, 10<<20)...), nil).expect(t, http.StatusRequestEntityTooLarge, "file")
			e.upload(f.owner, action, "", nil, map[string]string{"kind": "invoice"}).expect(t, http.StatusBadRequest, "file")
			e.upload(f.owner, action, "a.pdf", invoice, map[string]string{"kind": "contract"}).expect(t, http.StatusBadRequest, "kind")
			e.do(req{method: "POST", path: "/api/v1/payment-actions/" + action + "/documents", token: f.owner.token, body: map[string]any{"file": "x"}}).expect(t, http.StatusUnsupportedMediaType, "body")
			if items := e.do(req{method: "GET", path: "/api/v1/payment-actions/" + action + "/documents", token: f.owner.token}).expect(t, http.StatusOK).items(); len(items) != 2 {
				t.Fatalf("documents after refusals: %d", len(items))
			}
		})
	})
}
