package api_test

import (
	"testing"
)

// TestConsoleInRussian: a person who chooses Русский reads the sign-in page and the
// workflows page in Russian, and the API's Problems come back in Russian too.
func TestConsoleInRussian(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	tb := site.tab(t)

	tb.open("/sign-in")
	tb.choose("Language", "Русский")
	tb.seeHeading("Вход")
	tb.see("Забыли пароль?")
	tb.fill("Эл. почта", ada.email)
	tb.fill("Пароль", "не-тот-пароль")
	tb.click("Войти")
	tb.fieldMarked("Пароль")
	tb.seeOnce("E-mail или пароль указаны неверно.")
	tb.see("Проверьте e-mail и пароль")
	tb.answeredInRussian("/api/v1/auth/login")

	tb.fill("Пароль", password)
	tb.click("Войти")
	tb.at("/workflows")
	tb.seeHeading("Сценарии")
	tb.click("Новый сценарий")
	tb.fill("Название", " ")
	tb.click("Создать")
	tb.fieldShows("Название", "Имя не должно быть пустым или слишком длинным.")
	tb.answeredInRussian("/api/v1/projects/" + projectID + "/workflows")
}

// answeredInRussian fails unless the page's last request to path was refused with a
// Problem in Russian.
func (tb *tab) answeredInRussian(path string) {
	tb.t.Helper()
	if a := tb.answer(path); a.status < 400 || a.language != "ru" {
		tb.fail("%s answered %d in %q, want a Problem in ru", path, a.status, a.language)
	}
}
