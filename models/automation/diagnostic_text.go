package automation

import (
	"fmt"
	"strings"
)

// diagnosticTexts word each kind of diagnostic in every language the API speaks, as fmt
// formats of the same arguments (a language that orders them otherwise uses %[n]).
// Diagnostics are worked out when they are read, so each reader gets them in their own
// language (Localize); Message is English until then.
var diagnosticTexts = map[string]map[string]string{
	"invalid_action_key": {
		"en": "action_key %q must be snake_case: a lower-case letter, then letters, digits or _ (at most 64)",
		"ru": "Ключ действия %q должен быть в snake_case: строчная латинская буква, затем буквы, цифры или _ (не больше 64)",
	},
	"duplicate_action_key": {
		"en": "action_key %q is used by more than one action",
		"ru": "Ключ действия %q занят несколькими действиями",
	},
	"unknown_action_type": {
		"en": "action type %q does not exist",
		"ru": "Типа действия %q нет",
	},
	"planned_action_type": {
		"en": "action type %q is planned and cannot run yet",
		"ru": "Тип действия %q только запланирован и пока не работает",
	},
	"invalid_config": {
		"en": "config field %s does not match the %s schema",
		"ru": "Поле настроек %s не соответствует схеме %s",
	},
	"invalid_output_schema": {
		"en": "output_schema does not compile: %v",
		"ru": "output_schema не разбирается: %v",
	},
	"invalid_expression": {
		"en": "the condition does not compile: %v",
		"ru": "Условие не разбирается: %v",
	},
	"invalid_expression.case": {
		"en": "the case's expression does not compile: %v",
		"ru": "Выражение варианта не разбирается: %v",
	},
	"invalid_expression.items": {
		"en": "the list's expression does not compile: %v",
		"ru": "Выражение списка не разбирается: %v",
	},
	"invalid_expression.field": {
		"en": "the expression of %s does not compile: %v",
		"ru": "Выражение поля %s не разбирается: %v",
	},
	"reserved_case_name": {
		"en": "a case cannot be named %q: that branch is the switch's own",
		"ru": "Вариант нельзя назвать %q: эта ветка есть у переключателя и так",
	},
	"duplicate_case_name": {
		"en": "two cases are named %q; each case is a branch of its own",
		"ru": "Два варианта названы %q, а у каждого варианта должна быть своя ветка",
	},
	"no_trigger": {
		"en": "the workflow has no trigger action",
		"ru": "В сценарии нет триггера: добавьте его",
	},
	"bot_state_without_relay": {
		"en": "bot.set_state keeps the state of the chat whose bot update started the run; add a messenger_a.relay.trigger",
		"ru": "bot.set_state хранит состояние чата, обновление бота из которого запустило сценарий; добавьте messenger_a.relay.trigger",
	},
	"bot_reply_without_relay": {
		"en": "bot.wait_for_reply waits for the chat whose bot update started the run; add a messenger_a.relay.trigger",
		"ru": "bot.wait_for_reply ждёт чат, обновление бота из которого запустило сценарий; добавьте messenger_a.relay.trigger",
	},
	"dangling_connection": {
		"en": "connection %s -> %s names an action that does not exist",
		"ru": "Связь %s -> %s ведёт к несуществующему действию",
	},
	"duplicate_connection": {
		"en": "connection %s -> %s (branch %q) appears twice",
		"ru": "Связь %s -> %s (ветка %q) указана дважды",
	},
	"invalid_branch": {
		"en": "connections leaving %s carry branch %s or \"error\", not %q",
		"ru": "Связи из %s имеют ветку %s или \"error\", а не %q",
	},
	"invalid_branch.trigger": {
		"en": "connections leaving a trigger carry no branch label; %q found",
		"ru": "Связи из триггера ветку не указывают; здесь указана %q",
	},
	"trigger_has_inbound": {
		"en": "trigger %s cannot have incoming connections",
		"ru": "В триггер %s не могут входить связи",
	},
	"unreachable_action": {
		"en": "no trigger leads to action %s",
		"ru": "Ни один триггер не ведёт к действию %s: соедините его",
	},
	"cycle": {
		"en": "the connections form a cycle through %s; workflows must be acyclic",
		"ru": "Связи образуют цикл через %s; в сценарии циклов быть не должно",
	},
	"loop_body_leak": {
		"en": "%s runs once per item of loop %s (it is in the loop's body), so nothing outside the body may connect to it; what runs after the loop connects to actions outside the body, from the loop's \"done\" output",
		"ru": "%s выполняется для каждого элемента цикла %s (оно в теле цикла), поэтому связи извне тела к нему вести не могут; то, что идёт после цикла, подключайте с выхода цикла \"done\" к действиям вне тела",
	},
	"refused_in_loop": {
		"en": "%s cannot run inside a loop's body: it waits for what only the run itself receives",
		"ru": "%s не может выполняться внутри тела цикла: оно ждёт того, что получает только сам запуск",
	},
	"item_outside_loop": {
		"en": "{{ %s }} reads the item of a loop, but this action is not inside a loop's body",
		"ru": "{{ %s }} читает элемент цикла, но это действие не входит в тело цикла",
	},
	"broken_template": {
		"en": "%q is not a complete template: write {{ path }}, with two braces on each side",
		"ru": "%q — неполный шаблон: пишите {{ путь }}, по две фигурные скобки с каждой стороны",
	},
	"unresolvable_template": {
		"en": "template {{ %s }} cannot resolve here",
		"ru": "Шаблону {{ %s }} здесь неоткуда взять значение",
	},
	"connection_exists": {
		"en": "operation %d: the connection %s -> %s (branch %q) already exists; nothing was added",
		"ru": "Операция %d: связь %s -> %s (ветка %q) уже есть; ничего не добавлено",
	},
	"connection_not_found": {
		"en": "operation %d: no connection %s -> %s matches; nothing was deleted",
		"ru": "Операция %d: связи %s -> %s нет; ничего не удалено",
	},
	"integration_not_available": {
		"en": "%s named %q, which is not a %s integration of this project; it was left empty: choose one of the project's integrations%s",
		"ru": "В %s было %q, а это не интеграция %s этого проекта; поле оставлено пустым: выберите одну из интеграций проекта%s",
	},
	"integration_disabled": {
		"en": "integration %q (%s) is disabled; runs treat it as missing until it is enabled",
		"ru": "Интеграция %q (%s) отключена; пока её не включат, запуски считают, что её нет",
	},
	"integration_required": {
		"en": "%s needs a %s integration of the project in %s before the workflow can be published%s",
		"ru": "Для %s нужна интеграция проекта %s в поле %s, иначе сценарий не опубликовать%s",
	},
	"invalid_reference": {
		"en": "config.%s is not an id: %q",
		"ru": "config.%s — не id: %q",
	},
	"call_cycle": {
		"en": "the call leads back to this workflow",
		"ru": "Вызов ведёт обратно к этому сценарию",
	},
	"workflow_not_found": {
		"en": "the project has no workflow %s",
		"ru": "В проекте нет сценария %s",
	},
	"run_event_self": {
		"en": "a workflow does not watch its own runs: its runs from this trigger never start it, and an error path handles its other failures",
		"ru": "Сценарий не может следить за своими запусками: запуски от этого триггера его не запускают, а другие сбои обрабатывает путь ошибки",
	},
	"workflow_not_published": {
		"en": "workflow %q is not published",
		"ru": "Сценарий %q не опубликован: опубликуйте его",
	},
	"integration_wrong_type": {
		"en": "integration %s is a %s integration; %s needs a %s one",
		"ru": "Интеграция %s — это интеграция %s, а для %s нужна %s",
	},
	"integration_not_found": {
		"en": "the project has no integration %s",
		"ru": "В проекте нет интеграции %s",
	},
	"template_not_found": {
		"en": "the project has no template %s",
		"ru": "В проекте нет шаблона %s",
	},
	"egress_refused": {
		"en": "The egress policy refuses %s, a %s, so every run of this action would fail. " +
			"Use a public address, or ask the operator to allow this one in the APP_EGRESS_ALLOW setting (docs/configuration.md).",
		"ru": "Политика исходящих соединений не пускает к %s: это %s, и каждый запуск этого действия завершится ошибкой. " +
			"Укажите публичный адрес или попросите оператора разрешить этот в настройке APP_EGRESS_ALLOW (docs/configuration.md).",
	},
}

// Worded is an argument of a diagnostic that is itself said differently in each language
// (an egress refusal's reason).
type Worded interface {
	In(lang string) string
}

// Diagnosed is a diagnostic of the kind text (a key of diagnosticTexts) about args, worded
// in English until Localize words it for its reader.
func Diagnosed(severity, code, text string, args ...any) Diagnostic {
	d := Diagnostic{Severity: severity, Code: code, text: text, args: args}
	d.Message = d.in("en")
	return d
}

func (d Diagnostic) in(lang string) string {
	texts, ok := diagnosticTexts[d.text]
	if !ok {
		return d.Message
	}
	format, ok := texts[lang]
	if !ok {
		format = texts["en"]
	}
	args := make([]any, len(d.args))
	for i, a := range d.args {
		if w, ok := a.(Worded); ok {
			a = w.In(lang)
		}
		args[i] = a
	}
	return fmt.Sprintf(format, args...)
}

// Localize words the diagnostics in lang ("en" or "ru").
func Localize(lang string, ds []Diagnostic) []Diagnostic {
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		d.Message = d.in(lang)
		out[i] = d
	}
	return out
}

// candidateList names the integrations a patch could have used, after a diagnostic's
// sentence: "; the project has …" or that it has none.
type candidateList []string

func (c candidateList) In(lang string) string {
	switch {
	case len(c) == 0 && lang == "ru":
		return "; в проекте их пока нет"
	case len(c) == 0:
		return "; the project has none yet"
	case lang == "ru":
		return "; в проекте есть " + strings.Join(c, ", ")
	}
	return "; the project has " + strings.Join(c, ", ")
}
