package company

import "fmt"

type invitationMessage struct{ subject, body string }

// invitationTexts is the invitation mail in every language the API speaks; the arguments are
// the inviter's name, the company's name and the link.
var invitationTexts = map[string]invitationMessage{
	"en": {
		subject: "Join %[2]s",
		body: "%[1]s invites you to the company %[2]s.\n\n" +
			"Open this link to join (valid for seven days, once); sign in or register with this e-mail address:\n%[3]s\n\n" +
			"If you do not know the company, ignore this message.\n",
	},
	"ru": {
		subject: "Приглашение в %[2]s",
		body: "%[1]s приглашает вас в компанию %[2]s.\n\n" +
			"Откройте ссылку, чтобы присоединиться (действует семь дней, один раз); войдите или зарегистрируйтесь с этим адресом e-mail:\n%[3]s\n\n" +
			"Если вы не знаете эту компанию, проигнорируйте письмо.\n",
	},
}

// invitationMail words the invitation in lang, English when the API does not speak it.
func invitationMail(lang, inviter, companyName, link string) invitationMessage {
	m, ok := invitationTexts[lang]
	if !ok {
		m = invitationTexts["en"]
	}
	return invitationMessage{
		subject: fmt.Sprintf(m.subject, inviter, companyName),
		body:    fmt.Sprintf(m.body, inviter, companyName, link),
	}
}
