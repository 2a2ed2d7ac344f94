package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// formsFlow is a draft whose settings forms have a list, a text, a URL the schema refuses,
// and two conditions: one with both branches taken, one with neither.
func formsFlow() map[string]any {
	return map[string]any{
		"actions": []any{
			map[string]any{"action_key": "hook", "action_type_key": "webhook.trigger", "ui": map[string]any{"position": map[string]any{"x": 0, "y": 120}},
				"config": map[string]any{"endpoint_key": "orders", "json_fields": []any{"customer.email"}}},
			map[string]any{"action_key": "fetch", "action_type_key": "http.request", "ui": map[string]any{"position": map[string]any{"x": 320, "y": 120}},
				"config": map[string]any{"url": "ftp://example.com/orders", "method": "GET"}},
			map[string]any{"action_key": "check", "action_type_key": "condition.branch", "ui": map[string]any{"position": map[string]any{"x": 640, "y": 120}},
				"config": map[string]any{"text": "steps.fetch.status_code == 200"}},
			map[string]any{"action_key": "ok", "action_type_key": "stop", "ui": map[string]any{"position": map[string]any{"x": 960, "y": 0}}, "config": map[string]any{}},
			map[string]any{"action_key": "bad", "action_type_key": "stop", "ui": map[string]any{"position": map[string]any{"x": 960, "y": 240}}, "config": map[string]any{}},
			map[string]any{"action_key": "spare", "action_type_key": "condition.branch", "ui": map[string]any{"position": map[string]any{"x": 640, "y": 360}},
				"config": map[string]any{"text": "true"}},
		},
		"connections": []any{
			map[string]any{"from": "hook", "to": "fetch"},
			map[string]any{"from": "fetch", "to": "check"},
			map[string]any{"from": "check", "to": "ok", "branch": "true"},
			map[string]any{"from": "check", "to": "bad", "branch": "false"},
			map[string]any{"from": "hook", "to": "spare"},
		},
	}
}

// branchButtonsClear is true when no point of any edge's path lies inside one of the
// buttons that add an action after a branch (and there are such buttons).
const branchButtonsClear = `(() => {
	const buttons = [...document.querySelectorAll(".node-add-after button")].map((b) => b.getBoundingClientRect());
	if (buttons.length === 0) return false;
	for (const path of document.querySelectorAll(".react-flow__edge-path")) {
		const m = path.getScreenCTM();
		for (let at = 0, length = path.getTotalLength(); at <= length; at += 2) {
			const p = path.getPointAtLength(at).matrixTransform(m);
			if (buttons.some((r) => p.x >= r.left - 1 && p.x <= r.right + 1 && p.y >= r.top - 1 && p.y <= r.bottom + 1)) return false;
		}
	}
	return true;
})()`

// fitsTheWindow is true when the page does not scroll: the editor fills the window.
const fitsTheWindow = `document.scrollingElement.scrollHeight <= innerHeight`

// TestConsoleEditorFormsReadAsFinished: the settings of a draft's actions are labelled in
// words (a list's items, a text), a list's remove button is an icon with a name, a URL the
// schema refuses says why and stops saying it as soon as a valid one is typed (before any
// save), the buttons that add after a condition's branches keep off the edges at any zoom,
// and the editor fits the window with its settings open.
func TestConsoleEditorFormsReadAsFinished(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.newWorkflow(ada, projectID, "Orders")
	site.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: ada.token, body: formsFlow()}).expect(t, http.StatusOK)
	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.at("/workflows")
	tb.open("/workflows/" + id)
	tb.seeHeading("Actions")

	tb.clickNode("hook")
	if got := tb.valueOf("JSON field 1"); got != "customer.email" {
		tb.fail("the list's first item shows %q, want customer.email", got)
	}
	var remove struct{ Icon, Glyph bool }
	tb.waitFor("the list item's remove button", pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, clickable, "Remove", `function () {
			return this.closest(".config-panel") ? {icon: !!this.querySelector("svg"), glyph: !!this.querySelector(".glyphicon")} : null;
		}`, &remove)
	})
	if !remove.Icon || remove.Glyph {
		tb.fail("the remove button draws an icon %v, a glyph of the icon font %v", remove.Icon, remove.Glyph)
	}
	tb.accessible("the settings of an action with a list")
	var raw bool
	tb.eval(`document.querySelector(".config-panel").innerText.includes("json_fields")`, &raw)
	if raw {
		tb.fail("the settings show the field's name as the schema has it")
	}

	tb.clickNode("check")
	tb.waitFor("the condition's text labelled Text", pageWait, func(ctx context.Context) (bool, error) {
		return tb.onNamed(ctx, typable, "Text", `function () { return this.closest(".config-panel") ? true : null; }`, nil)
	})
	tb.eval(branchButtonsClear, &raw)
	if !raw {
		tb.fail("a button adding after a branch of check sits on an edge")
	}
	for range 4 {
		tb.clickAt("the canvas's zoom out", `document.querySelector(".react-flow__controls-zoomout")`, true)
	}
	tb.waitJS("the branch buttons off the edges when zoomed out", branchButtonsClear)
	tb.clickNode("spare")
	tb.see("Selected: spare")
	tb.waitJS("the branch buttons of a condition without branches off the edges", branchButtonsClear)

	tb.clickNode("fetch")
	tb.fieldShows("URL", "Not in the expected form")
	tb.see("The setting “URL” has a value this action does not accept.")
	tb.eval(`document.body.innerText.includes("does not match the")`, &raw)
	if raw {
		tb.fail("the page words a problem in the schema's terms")
	}
	tb.waitJS("the editor to fit the window at 1400×900", fitsTheWindow)

	tb.fill("URL", "https://example.com/orders")
	tb.waitJS("the URL's error to go", `(() => {
		const url = [...document.querySelectorAll(".config-panel [aria-label='URL']")][0];
		return !!url && url.getAttribute("aria-invalid") === "false" && !document.body.innerText.includes("Not in the expected form")
			&& !document.body.innerText.includes("has a value this action does not accept");
	})()`)
	if a := tb.answer("/api/v1/workflows/" + id + "/draft"); a.status != 0 {
		tb.fail("the error went only after the draft was saved (answered %d)", a.status)
	}

	if err := chromedp.Run(tb.ctx, chromedp.EmulateViewport(1000, 800)); err != nil {
		t.Fatal(err)
	}
	tb.waitJS("the editor to fit the window at 1000×800", fitsTheWindow)
	tb.see("Saved")
}

// TestConsoleSwitchCasesReadAsCases: a switch's list of cases is added to with "Add case"
// ("Добавить вариант"), its items are "Case 1", "Case 2", and a case's branch name and
// condition take the list's width, its remove button on the case's frame, not beside it.
func TestConsoleSwitchCasesReadAsCases(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.workflowWithDraft(ada, projectID, "Orders", map[string]any{
		"actions":     []any{act("route", "condition.switch", map[string]any{"cases": []any{map[string]any{"name": "north", "text": `trigger.region == "north"`}}})},
		"connections": []any{},
	})
	tb := site.editorOf(ada, id)
	tb.clickNode("route")
	tb.click("Add case")
	tb.see("Case 2")
	tb.see("Case 1")
	var widths struct{ Panel, Name, Condition float64 }
	tb.eval(`(() => {
		const panel = document.querySelector(".array-item-list").getBoundingClientRect().width;
		const first = document.querySelector(".array-item-list .rjsf-array-item");
		return {panel, name: first.querySelector("input").getBoundingClientRect().width,
			condition: first.querySelector(".template-editor").getBoundingClientRect().width};
	})()`, &widths)
	if widths.Name < 0.9*widths.Panel || widths.Condition < 0.9*widths.Panel {
		tb.fail("in a list of cases %.0f px wide a case's branch name is %.0f px and its condition %.0f px wide", widths.Panel, widths.Name, widths.Condition)
	}
	tb.choose("Language", "Русский")
	tb.see("Вариант 2")
	tb.click("Добавить вариант")
	tb.see("Вариант 3")
}

// TestConsoleAnEmptyDataStepSaysHowToAddAField: a data.set without fields says, in its
// form, how to write the first one, in both languages, instead of an empty box; the hint
// goes once a field is written.
func TestConsoleAnEmptyDataStepSaysHowToAddAField(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.workflowWithDraft(ada, projectID, "Orders", map[string]any{
		"actions":     []any{act("shape", "data.set", map[string]any{"fields": map[string]any{}})},
		"connections": []any{},
	})
	tb := site.editorOf(ada, id)
	tb.clickNode("shape")
	tb.see(`Nothing here yet. Write each entry as "name": "value" inside braces`)
	tb.screenshot("data-set-empty-en")
	tb.choose("Language", "Русский")
	tb.see(`Пока пусто. Запишите каждую запись как "имя": "значение"`)
	tb.screenshot("data-set-empty-ru")
}
