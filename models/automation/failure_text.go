package automation

import (
	"regexp"
	"strings"
)

// unnamed finds a placeholder of a failure text that its reason_args left unfilled.
var unnamed = regexp.MustCompile(`\{[a-z_]+\}`)

// Reason codes of the failures the interpreter words itself. ReasonMissingValue: a
// condition (a switch case, a data field) read a value absent from the run's data; its
// reason_args name the path. ReasonNoCaseMatched: no case of a switch without a default
// was true. ReasonValueTooLarge: a data step's values are larger than the limit its
// reason_args give, in KiB.
const (
	ReasonMissingValue  = "missing_value"
	ReasonNoCaseMatched = "no_case_matched"
	ReasonValueTooLarge = "value_too_large"
)

// Reason codes of a loop.for_each's failures. ReasonNotAList: its items expression gave
// no list (reason_args: kind). ReasonTooManyItems: the list is longer than MaxLoopItems
// (count, limit). ReasonItemFailed: an item failed and the loop fails on a failed item
// (index, action_key, reason).
const (
	ReasonNotAList     = "not_a_list"
	ReasonTooManyItems = "too_many_items"
	ReasonItemFailed   = "item_failed"
)

// ReasonAttemptsExhausted words what to do about a dead-lettered action, whatever its
// last failure said while attempts remained ("retried automatically" no longer holds).
const ReasonAttemptsExhausted = "attempts_exhausted"

// ReasonEgressRefused is the reason_code of a call the egress policy refused; its
// reason_args are the host and the policy's reason (egress_reason, worded per language by
// EgressReason).
const ReasonEgressRefused = "egress_refused"

// failureTexts word the failures that the run records in English (workflow code cannot know
// who will read them) in each language the API speaks, by reason_code; {name} stands for
// the failure's reason_args.
var failureTexts = map[string]map[string]struct{ reason, next string }{
	"en": {
		ReasonMissingValue: {
			`"{path}" is missing from the run's data.`,
			"Give the run the value (a test run's input starts from the trigger's sample), or write the condition so that it allows for its absence",
		},
		ReasonNoCaseMatched: {
			"No case of the switch was true, and it has no default branch.",
			"Turn on the default branch, add a case for this data, or connect an error path",
		},
		ReasonValueTooLarge: {
			"The data step's values are larger than {limit} KiB together.",
			"Keep only the fields the next actions need",
		},
		ReasonNotAList: {
			"The loop's items are not a list but {kind}.",
			"Write the items expression so that it gives a list, e.g. steps.fetch.json.orders",
		},
		ReasonTooManyItems: {
			"The list has {count} items; a loop takes at most {limit}.",
			"Split the list, e.g. into pages the workflow fetches one by one",
		},
		ReasonItemFailed: {
			"Item {index} failed at {action_key}: {reason}",
			"Open the item in the run inspector; to go on past failed items, set the loop's \"When an item fails\" to continue",
		},
		ReasonAttemptsExhausted: {
			"The action failed on every attempt its retry policy allows.",
			"Nothing retries it now: check the target, then retry the action",
		},
		ReasonEgressRefused: {
			"{host} may not be called: {egress_reason}.",
			"Use a public address, or ask the operator to allow-list it in APP_EGRESS_ALLOW",
		},
	},
	"ru": {
		ReasonMissingValue: {
			"В данных запуска нет «{path}».",
			"Передайте запуску это значение (тестовый запуск начинается с примера данных триггера) или напишите условие так, чтобы оно допускало его отсутствие",
		},
		ReasonNoCaseMatched: {
			"Ни один вариант переключателя не подошёл, а ветки по умолчанию у него нет.",
			"Включите ветку по умолчанию, добавьте вариант для таких данных или подключите ветку ошибки",
		},
		ReasonValueTooLarge: {
			"Значения шага данных вместе больше {limit} КиБ.",
			"Оставьте только поля, которые нужны следующим действиям",
		},
		ReasonNotAList: {
			"Элементы цикла — не список, а {kind}.",
			"Напишите выражение элементов так, чтобы оно давало список, например steps.fetch.json.orders",
		},
		ReasonTooManyItems: {
			"В списке {count} элементов, а цикл берёт не больше {limit}.",
			"Разбейте список, например на страницы, которые сценарий получает по одной",
		},
		ReasonItemFailed: {
			"Элемент {index} не удался на {action_key}: {reason}",
			"Откройте элемент в инспекторе запуска; чтобы цикл шёл дальше мимо неудачных элементов, выберите для него «Если элемент не удался» — continue",
		},
		ReasonAttemptsExhausted: {
			"Действие не удалось ни в одной из попыток, которые допускает его политика повторов.",
			"Само оно больше не повторится: проверьте цель, затем повторите действие",
		},
		ReasonEgressRefused: {
			"Политика исходящих соединений не пускает к {host}: это {egress_reason}.",
			"Укажите публичный адрес или попросите оператора разрешить этот в настройке APP_EGRESS_ALLOW",
		},
	},
}

// egressReasonsRu words egress.RefusedError's reasons in Russian.
var egressReasonsRu = map[string]string{
	"loopback address":       "адрес самой машины (loopback)",
	"private address":        "адрес частной сети",
	"link-local address":     "локальный адрес канала (link-local)",
	"unspecified address":    "неопределённый адрес",
	"multicast address":      "групповой адрес (multicast)",
	"reserved address":       "зарезервированный адрес",
	"shared (CGNAT) address": "адрес общей сети провайдера (CGNAT)",
}

// EgressReason is the egress policy's reason for refusing an address in lang.
func EgressReason(lang, reason string) string {
	if ru, ok := egressReasonsRu[reason]; ok && lang == "ru" {
		return ru
	}
	return reason
}

// FailureText is the human_reason and next_action of a recorded failure in lang (English
// for a language without texts), and false for a reason_code worded only where it failed,
// or recorded without the reason_args its text names (then it is shown as recorded).
func FailureText(lang, reasonCode string, args map[string]string) (reason, next string, ok bool) {
	texts, known := failureTexts[lang]
	if !known {
		texts = failureTexts["en"]
	}
	t, ok := texts[reasonCode]
	if !ok {
		return "", "", false
	}
	for name, value := range args {
		if name == "egress_reason" {
			value = EgressReason(lang, value)
		}
		t.reason = strings.ReplaceAll(t.reason, "{"+name+"}", value)
		t.next = strings.ReplaceAll(t.next, "{"+name+"}", value)
	}
	if unnamed.MatchString(t.reason + t.next) {
		return "", "", false
	}
	return t.reason, t.next, true
}

// MissingValueError is a condition that failed on a value absent from the run's data.
type MissingValueError struct{ Path string }

func (e *MissingValueError) Error() string {
	reason, _, _ := FailureText("en", ReasonMissingValue, map[string]string{"path": e.Path})
	return reason
}
