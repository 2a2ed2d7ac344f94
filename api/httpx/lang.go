package httpx

import (
	"github.com/gin-gonic/gin"
	"golang.org/x/text/language"
)

// Languages the API answers in; the first is the default.
var supported = []language.Tag{language.English, language.Russian}

var matcher = language.NewMatcher(supported)

const langKey = "httpx.lang"

// negotiate picks en or ru from an Accept-Language header.
func negotiate(acceptLanguage string) string {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return "en"
	}
	_, index, conf := matcher.Match(tags...)
	if conf == language.No {
		return "en"
	}
	base, _ := supported[index].Base()
	return base.String()
}

// Lang is the negotiated language of the request ("en" or "ru").
func Lang(c *gin.Context) string {
	if l := c.GetString(langKey); l != "" {
		return l
	}
	return "en"
}
