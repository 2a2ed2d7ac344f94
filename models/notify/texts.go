package notify

import (
	"strconv"
	"strings"

	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/desktop"
	"agencyhub/models/money"
)

// noticeText is the title and body of a kind of notice in one language. {name} stands for
// the value the notifier fills in (a workflow's or a client's name, a run's reason, a task's
// description), which is never read as a text of the catalog itself.
type noticeText struct{ title, body string }

// noticeTexts holds every notice in each language of auth.Languages. A test checks that
// both languages have every kind, with the same placeholders.
var noticeTexts = map[string]map[string]noticeText{
	"en": {
		desktop.KindRunFailed:            {"A run of {workflow} failed", "{reason}"},
		desktop.KindPaymentActionDue:     {"Payment due from {client}", "{amount} due on {due_date} ({project})"},
		desktop.KindTaskAssigned:         {"Task assigned to you: {task}", "{description}"},
		desktop.KindToolCallNeedsApprove: {"The AI employee asks to run {tool}", "Approve or reject it in the session."},
		desktop.KindConversationOpened:   {"A visitor started a conversation on {widget}", "{page}"},
		desktop.KindApprovalRequested:    {"Waiting for your approval: {title}", "Approve or reject it in the run, or in your approvals."},
	},
	"ru": {
		desktop.KindRunFailed:            {"Запуск процесса {workflow} завершился ошибкой", "{reason}"},
		desktop.KindPaymentActionDue:     {"Ожидается оплата от {client}", "{amount} к оплате до {due_date} ({project})"},
		desktop.KindTaskAssigned:         {"Вам назначена задача: {task}", "{description}"},
		desktop.KindToolCallNeedsApprove: {"ИИ-сотрудник просит разрешения запустить {tool}", "Одобрите или отклоните запуск в сессии."},
		desktop.KindConversationOpened:   {"Посетитель начал разговор в виджете {widget}", "{page}"},
		desktop.KindApprovalRequested:    {"Ждёт вашего согласования: {title}", "Одобрите или отклоните в запуске или в списке ваших согласований."},
	},
}

// value is what a placeholder stands for, written as the reader's language writes it.
type value interface{ in(lang string) string }

// plain is a text filled in as it is (a name, a reason).
type plain string

func (p plain) in(string) string { return string(p) }

// sum is money, written as the console writes it in the language.
type sum struct {
	amount   money.Amount
	currency string
}

func (s sum) in(lang string) string { return s.amount.Format(s.currency, lang) }

// day is a calendar date, written out: December 1, 2026; 1 декабря 2026.
type day models.Date

// months are the months' names as a date writes them (Russian's genitive).
var months = map[string][12]string{
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	"ru": {"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"},
}

func (d day) in(lang string) string {
	t := models.Date(d).Time()
	month, dd, year := months[auth.Language(lang)][t.Month()-1], strconv.Itoa(t.Day()), strconv.Itoa(t.Year())
	if auth.Language(lang) == "ru" {
		return dd + " " + month + " " + year
	}
	return month + " " + dd + ", " + year
}

// text is the title and body of a notice of kind in lang, filled with values.
func text(lang, kind string, values map[string]value) (title, body string) {
	t := noticeTexts[auth.Language(lang)][kind]
	pairs := make([]string, 0, 2*len(values))
	for name, v := range values {
		pairs = append(pairs, "{"+name+"}", v.in(lang))
	}
	fill := strings.NewReplacer(pairs...)
	return fill.Replace(t.title), fill.Replace(t.body)
}
