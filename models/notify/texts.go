package notify

import (
	"strings"

	"agencyhub/models/auth"
	"agencyhub/models/desktop"
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
		desktop.KindPaymentActionDue:     {"Payment due from {client}", "{amount} {currency} due on {due_date} ({project})"},
		desktop.KindTaskAssigned:         {"Task assigned to you: {task}", "{description}"},
		desktop.KindToolCallNeedsApprove: {"The AI employee asks to run {tool}", "Approve or reject it in the session."},
		desktop.KindConversationOpened:   {"A visitor started a conversation on {widget}", "{page}"},
	},
	"ru": {
		desktop.KindRunFailed:            {"Запуск процесса {workflow} завершился ошибкой", "{reason}"},
		desktop.KindPaymentActionDue:     {"Ожидается оплата от {client}", "{amount} {currency}, срок оплаты {due_date} ({project})"},
		desktop.KindTaskAssigned:         {"Вам назначена задача: {task}", "{description}"},
		desktop.KindToolCallNeedsApprove: {"ИИ-сотрудник просит разрешения запустить {tool}", "Одобрите или отклоните запуск в сессии."},
		desktop.KindConversationOpened:   {"Посетитель начал разговор в виджете {widget}", "{page}"},
	},
}

// text is the title and body of a notice of kind in lang, filled with values.
func text(lang, kind string, values map[string]string) (title, body string) {
	t := noticeTexts[auth.Language(lang)][kind]
	pairs := make([]string, 0, 2*len(values))
	for name, value := range values {
		pairs = append(pairs, "{"+name+"}", value)
	}
	fill := strings.NewReplacer(pairs...)
	return fill.Replace(t.title), fill.Replace(t.body)
}
