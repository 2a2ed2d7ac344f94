package automation

import "strings"

// ReasonMissingValue is the reason_code of a condition that failed because a value it reads
// is absent from the run's data; its reason_args name the path.
const ReasonMissingValue = "missing_value"

// failureTexts word the failures that the run records in English (workflow code cannot know
// who will read them) in each language the API speaks, by reason_code; {name} stands for
// the failure's reason_args.
var failureTexts = map[string]map[string]struct{ reason, next string }{
	"en": {
		ReasonMissingValue: {
			`"{path}" is missing from the run's data.`,
			"Give the run the value (a test run's input starts from the trigger's sample), or write the condition so that it allows for its absence",
		},
	},
	"ru": {
		ReasonMissingValue: {
			"В данных запуска нет «{path}».",
			"Передайте запуску это значение (тестовый запуск начинается с примера данных триггера) или напишите условие так, чтобы оно допускало его отсутствие",
		},
	},
}

// FailureText is the human_reason and next_action of a recorded failure in lang (English
// for a language without texts), and false for a reason_code worded only where it failed.
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
		t.reason = strings.ReplaceAll(t.reason, "{"+name+"}", value)
		t.next = strings.ReplaceAll(t.next, "{"+name+"}", value)
	}
	return t.reason, t.next, true
}

// MissingValueError is a condition that failed on a value absent from the run's data.
type MissingValueError struct{ Path string }

func (e *MissingValueError) Error() string {
	reason, _, _ := FailureText("en", ReasonMissingValue, map[string]string{"path": e.Path})
	return reason
}
