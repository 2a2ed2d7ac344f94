package auth

import "fmt"

type mailKind int

const (
	mailActivation mailKind = iota
	mailPasswordReset
)

type mailMessage struct{ subject, body string }

// mailTexts holds each mail in every language the API speaks; %s is the link.
var mailTexts = map[string]map[mailKind]mailMessage{
	"en": {
		mailActivation: {
			subject: "Activate your account",
			body:    "Welcome!\n\nOpen this link to activate your account:\n%s\n\nIf you did not sign up, ignore this message.\n",
		},
		mailPasswordReset: {
			subject: "Reset your password",
			body: "Someone asked to reset the password of your account.\n\n" +
				"Open this link to choose a new one (valid for one hour, once):\n%s\n\n" +
				"If it was not you, ignore this message; your password stays as it is.\n",
		},
	},
	"ru": {
		mailActivation: {
			subject: "Активируйте учётную запись",
			body: "Добро пожаловать!\n\nОткройте ссылку, чтобы активировать учётную запись:\n%s\n\n" +
				"Если вы не регистрировались, просто проигнорируйте это письмо.\n",
		},
		mailPasswordReset: {
			subject: "Сброс пароля",
			body: "Поступил запрос на сброс пароля вашей учётной записи.\n\n" +
				"Откройте ссылку, чтобы задать новый пароль (действует один час, один раз):\n%s\n\n" +
				"Если это были не вы, проигнорируйте письмо: пароль останется прежним.\n",
		},
	},
}

func mailText(lang string, kind mailKind, link string) mailMessage {
	m := mailTexts[Language(lang)][kind]
	return mailMessage{subject: m.subject, body: fmt.Sprintf(m.body, link)}
}
