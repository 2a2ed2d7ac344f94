package api_test

import (
	"net/http"
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

// TestConsoleEditorInRussian: in Russian the editor's palette names the actions in Russian,
// an action's settings are labelled and explained in Russian, and a draft's diagnostic (an
// address the egress policy refuses) reads in Russian; switching to English on the page
// reads the catalog again in English.
func TestConsoleEditorInRussian(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	ada, projectID := site.member("Ada")
	id := site.newWorkflow(ada, projectID, "Заказы")
	site.do(req{method: "PUT", path: "/api/v1/workflows/" + id + "/draft", token: ada.token, body: draft([]any{
		act("start", "manual.trigger", map[string]any{}),
		act("fetch", "http.request", map[string]any{"url": "http://169.254.169.254/latest/meta-data"}),
	}, edge("start", "fetch", ""))}).expect(t, http.StatusOK)
	tb := site.tab(t)
	tb.open("/sign-in")
	tb.signIn(ada)
	tb.at("/workflows")
	tb.open("/workflows/" + id)
	tb.seeHeading("Actions")
	tb.see("Send e-mail")
	tb.choose("Language", "Русский")
	tb.seeHeading("Действия")
	for _, name := range []string{"Вебхук", "Отправить письмо", "Условие", "Задержка", "Ручной запуск"} {
		tb.see(name)
	}

	tb.clickNode("fetch")
	tb.see("Политика исходящих соединений не пускает к 169.254.169.254: это локальный адрес канала (link-local)")
	tb.see("HTTP-запрос")
	tb.see("Строковые поля могут содержать {{ шаблоны }}")
	tb.see("Время ожидания")
	tb.see("Предел времени одной попытки, от 1 до 120 секунд")
	tb.see("Заголовки")

	tb.choose("Язык", "English")
	tb.see("Send e-mail")
	tb.see("Time limit of one attempt, 1 to 120 seconds")
	tb.see("The egress policy refuses 169.254.169.254")
}
