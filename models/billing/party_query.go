package billing

import (
	"agencyhub/models"
	"agencyhub/models/taxid"
)

// PartyRegistryNumber checks what a party lookup searches by: exactly one of an INN (10
// digits for an organisation, 12 for a person) and an OGRN (13 digits) or OGRNIP (15),
// check digits included, and returns it. Errors: invalid (inn, ogrn; both when neither or
// both are given).
func PartyRegistryNumber(inn, ogrn string) (string, error) {
	switch {
	case (inn == "") == (ogrn == ""):
		return "", models.Invalid("invalid_party_query", "inn", "ogrn")
	case inn != "" && taxid.INN(inn) != nil:
		return "", models.Invalid("invalid_party_query", "inn")
	case inn != "":
		return inn, nil
	case taxid.OGRN(ogrn) != nil && taxid.OGRNIP(ogrn) != nil:
		return "", models.Invalid("invalid_party_query", "ogrn")
	}
	return ogrn, nil
}
