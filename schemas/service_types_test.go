package schemas

import "testing"

func TestTheGlobalServiceTypesHaveOther(t *testing.T) {
	for _, st := range GlobalServiceTypes {
		if st.Key == "other" {
			return
		}
	}
	t.Fatal("billing/service_types.json lacks the type other, which services without a type get")
}

func TestParseServiceTypesRefusesDuplicatesAndBadKeys(t *testing.T) {
	for name, raw := range map[string]string{
		"a duplicate key": `[{"client_service_type_id":"616daa02-f6c1-4f4e-9dfd-8ffdfcb48daf","service_type_key":"a","display_name":"A"},
			{"client_service_type_id":"24b34c3c-080d-47f3-8e5f-58c177d4a90b","service_type_key":"a","display_name":"B"}]`,
		"a duplicate id": `[{"client_service_type_id":"616daa02-f6c1-4f4e-9dfd-8ffdfcb48daf","service_type_key":"a","display_name":"A"},
			{"client_service_type_id":"616daa02-f6c1-4f4e-9dfd-8ffdfcb48daf","service_type_key":"b","display_name":"B"}]`,
		"a bad key":  `[{"client_service_type_id":"616daa02-f6c1-4f4e-9dfd-8ffdfcb48daf","service_type_key":"Web Site","display_name":"A"}]`,
		"no id":      `[{"service_type_key":"a","display_name":"A"}]`,
		"not a list": `{}`,
	} {
		if _, err := parseServiceTypes([]byte(raw)); err == nil {
			t.Errorf("%s was accepted", name)
		}
	}
}
