package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// TestConsoleFindsARunByWhatItCarried: with the keyboard, an operator searches an order
// number among the project's runs and finds its run alone, the search kept in the address
// and shown as a chip whose removal brings every run back; the runs that failed at one
// action are found the same way, and from that action in a run's inspector; a search the
// server refuses says why on the box, in English and in Russian.
func TestConsoleFindsARunByWhatItCarried(t *testing.T) {
	site := newConsoleSite(t)
	crm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/A-1003") {
			http.Error(w, "unknown customer", http.StatusUnprocessableEntity)
		}
	}))
	t.Cleanup(crm.Close)
	ada, projectID := site.member("Ada")
	workflowID := site.publishGraph(ada, projectID, "Orders", draft([]any{
		act("start", "manual.trigger", map[string]any{}),
		act("crm", "http.request", map[string]any{"url": crm.URL + "/orders/{{ start.order_id }}"}),
	}, edge("start", "crm", "")))
	runs := map[string]string{}
	for _, order := range []string{"A-1001", "A-1002", "A-1003", "B-2001"} {
		runID := site.do(req{method: "POST", path: "/api/v1/workflows/" + workflowID + "/runs/manual", token: ada.token,
			body: map[string]any{"input": map[string]any{"order_id": order, "email": "ivan@example.com"}}}).expect(t, http.StatusAccepted).str("workflow_run_id")
		site.waitRun(ada, runID)
		runs[order] = runID
	}
	listed := func(tb *tab, orders ...string) {
		t.Helper()
		var want []string
		for _, o := range orders {
			want = append(want, `"/runs/`+runs[o]+`"`)
		}
		tb.waitJS("the list to show the runs of "+strings.Join(orders, ", "), `(() => {
			const links = [...document.querySelectorAll(".runs-table tbody tr a[href^='/runs/']")].map((a) => a.getAttribute("href")).sort();
			return JSON.stringify(links) === JSON.stringify([`+strings.Join(want, ",")+`].sort());
		})()`)
	}

	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.open("/runs")
	listed(tb, "A-1001", "A-1002", "A-1003", "B-2001")
	tb.tabTo("Search runs", false)
	tb.fill("Search runs", "a-1002")
	tb.press(kb.Enter)
	listed(tb, "A-1002")
	tb.at("/runs?q=a-1002")
	tb.see("Search: a-1002")

	tb.open("/runs?q=a-1002") // shared or reloaded, the search holds
	listed(tb, "A-1002")
	tb.tabTo("Remove the filter Search: a-1002", false)
	tb.press(kb.Enter)
	listed(tb, "A-1001", "A-1002", "A-1003", "B-2001")

	tb.tabTo("Failed at", false)
	tb.fill("Failed at", "crm")
	tb.press(kb.Enter)
	listed(tb, "A-1003")
	tb.see("Failed at: crm")
	tb.fill("Search runs", "ivan@example.com 422")
	tb.press(kb.Enter)
	listed(tb, "A-1003")

	// From a failed action, its inspector leads to every run that failed there too.
	tb.open("/runs/" + runs["A-1003"])
	tb.clickNode("crm")
	tb.click("All runs that failed at this action")
	tb.at("/workflows/" + workflowID + "/runs?failed=crm")
	listed(tb, "A-1003")

	tb.fill("Search runs", "one two three four five six seven eight nine")
	tb.press(kb.Enter)
	tb.fieldShows("Search runs", "A search takes at most 8 words")
	tb.accessible("a run search")
	tb.screenshot("en-1400")
	tb.resize(1000, 800)
	tb.screenshot("en-1000")

	tb.choose("Language", "Русский")
	tb.see("Ошибка в действии: crm")
	tb.fieldShows("Поиск запусков", "В поиске не больше 8 слов")
	tb.screenshot("ru-1000")
	tb.resize(390, 800)
	tb.fitsWidth("the runs page with its search and chips at 390 px")
	tb.screenshot("ru-390")
}
