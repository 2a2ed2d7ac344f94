package main

import (
	"reflect"
	"strings"
	"testing"

	"agencyhub/models/auth"
)

func TestIdentityProviderConfig(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	idpA := map[string]string{
		"APP_PUBLIC_URL":     "https://api.example.com",
		"IDP_A_CLIENT_ID":    "agencyhub",
		"IDP_A_AUTH_URL":     "https://idp-a.example.com/authorize",
		"IDP_A_TOKEN_URL":    "https://idp-a.example.com/token",
		"IDP_A_USERINFO_URL": "https://idp-a.example.com/userinfo",
	}
	t.Run("no provider is configured by default, and browsers land on the web app", func(t *testing.T) {
		c, err := ParseConfig(nil, env(map[string]string{"APP_WEB_URL": "https://app.example.com"}))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.identityProviders()) != 0 || c.SignInRedirectURL != "https://app.example.com" || c.nativeRedirectPrefixes() != nil {
			t.Fatalf("providers %v, redirect %q, prefixes %v", c.identityProviders(), c.SignInRedirectURL, c.nativeRedirectPrefixes())
		}
	})
	t.Run("a provider's variables configure it with its callback under the public URL", func(t *testing.T) {
		vars := map[string]string{"IDP_A_CLIENT_SECRET": "s3cret", "IDP_A_SCOPES": "openid,email", "APP_NATIVE_REDIRECT_PREFIXES": "com.example.app:/oauth, https://app.example.com/native/"}
		for k, v := range idpA {
			vars[k] = v
		}
		c, err := ParseConfig(nil, env(vars))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]auth.ProviderConfig{"idp_a": {
			DisplayName: "Identity provider A", ClientID: "agencyhub", ClientSecret: "s3cret",
			AuthURL: idpA["IDP_A_AUTH_URL"], TokenURL: idpA["IDP_A_TOKEN_URL"], UserInfoURL: idpA["IDP_A_USERINFO_URL"],
			RedirectURL: "https://api.example.com/api/v1/auth/oauth/idp_a/callback", Scopes: []string{"openid", "email"},
		}}
		if got := c.identityProviders(); !reflect.DeepEqual(got, want) {
			t.Fatalf("providers %+v, want %+v", got, want)
		}
		if got := c.nativeRedirectPrefixes(); !reflect.DeepEqual(got, []string{"com.example.app:/oauth", "https://app.example.com/native/"}) {
			t.Fatalf("prefixes %v", got)
		}
	})
	t.Run("IDP_C_NAME names a provider on the sign-in page", func(t *testing.T) {
		vars := map[string]string{"IDP_C_NAME": "Corporate account"}
		for k, v := range idpA {
			vars[strings.Replace(k, "IDP_A", "IDP_C", 1)] = v
		}
		c, err := ParseConfig(nil, env(vars))
		if err != nil || c.identityProviders()["idp_c"].DisplayName != "Corporate account" {
			t.Fatalf("providers %+v, err %v", c.identityProviders(), err)
		}
	})
	t.Run("a flag configures a provider too", func(t *testing.T) {
		c, err := ParseConfig([]string{"-idp-c-client-id", "cli", "-idp-c-auth-url", "https://c/a", "-idp-c-token-url", "https://c/t", "-idp-c-userinfo-url", "https://c/u"}, env(nil))
		if err != nil || c.identityProviders()["idp_c"].ClientID != "cli" || len(c.identityProviders()["idp_c"].Scopes) != 3 {
			t.Fatalf("providers %v, err %v", c.identityProviders(), err)
		}
	})
	for name, change := range map[string][2]string{
		"a provider without its token URL":  {"IDP_A_TOKEN_URL", ""},
		"a provider with a relative URL":    {"IDP_A_USERINFO_URL", "/userinfo"},
		"a provider with a non-http URL":    {"IDP_A_AUTH_URL", "ftp://idp-a.example.com/authorize"},
		"provider URLs without a client id": {"IDP_A_CLIENT_ID", ""},
	} {
		t.Run(name+" is refused", func(t *testing.T) {
			vars := map[string]string{}
			for k, v := range idpA {
				vars[k] = v
			}
			vars[change[0]] = change[1]
			if _, err := ParseConfig(nil, env(vars)); err == nil {
				t.Fatalf("%s=%q accepted", change[0], change[1])
			}
		})
	}
}
