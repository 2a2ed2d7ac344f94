package filestore_test

import (
	"strings"
	"testing"

	"agencyhub/platform/filestore"
)

func TestParseS3URLReadsEverySetting(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]filestore.S3Config{
		"s3://AKID:s3cr3t@objects.example.test/uploads": {
			Endpoint: "objects.example.test", AccessKey: "AKID", SecretKey: "s3cr3t", Bucket: "uploads",
			Region: "us-east-1", Secure: true,
		},
		"s3://AKID:s3cr3t@10.0.0.5:9000/uploads/prod/files/?region=eu-central-1&secure=false&path_style=true": {
			Endpoint: "10.0.0.5:9000", AccessKey: "AKID", SecretKey: "s3cr3t", Bucket: "uploads", Prefix: "prod/files",
			Region: "eu-central-1", PathStyle: true,
		},
		"s3://AKID:a%2Fb%2Bc%3D%23%40d@[::1]:9000/my.bucket-1?secure=1&path_style=0": {
			Endpoint: "[::1]:9000", AccessKey: "AKID", SecretKey: "a/b+c=#@d", Bucket: "my.bucket-1",
			Region: "us-east-1", Secure: true,
		},
	} {
		got, err := filestore.ParseS3URL(raw)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", raw, got, want)
		}
	}
}

func TestParseS3URLSaysWhatIsWrong(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t"
	for raw, wantInError := range map[string]string{
		"":                                               "scheme",
		"https://AKID:s3cr3t@host/uploads":               "scheme must be s3",
		"s3://host/uploads":                              "access key is missing",
		"s3://AKID@host/uploads":                         "secret key is missing",
		"s3://AKID:@host/uploads":                        "secret key is missing",
		"s3://:s3cr3t@host/uploads":                      "access key is missing",
		"s3://AKID:s3cr3t@/uploads":                      "host is missing",
		"s3://AKID:s3cr3t@host:0/uploads":                "port",
		"s3://AKID:s3cr3t@host:70000/uploads":            "port",
		"s3://AKID:s3cr3t@host:http/uploads":             "not a valid URL",
		"s3://AKID:s3cr3t/x@host/uploads":                "not a valid URL", // an unencoded / in the secret
		"s3://AKID:s3cr3t#x@host/uploads":                "#",
		"s3://AKID:s3cr3t@host":                          "bucket is missing",
		"s3://AKID:s3cr3t@host/":                         "bucket is missing",
		"s3://AKID:s3cr3t@host//prefix":                  "bucket is missing",
		"s3://AKID:s3cr3t@host/Up_Loads":                 "not a bucket name",
		"s3://AKID:s3cr3t@host/ab":                       "not a bucket name",
		"s3://AKID:s3cr3t@host/uploads/../etc":           "prefix",
		"s3://AKID:s3cr3t@host/uploads/Prod":             "prefix",
		"s3://AKID:s3cr3t@host/uploads/a//b":             "prefix",
		"s3://AKID:s3cr3t@host/uploads?secure=maybe":     "secure must be true or false",
		"s3://AKID:s3cr3t@host/uploads?path_style=yes":   "path_style must be true or false",
		"s3://AKID:s3cr3t@host/uploads?region=":          "region is empty",
		"s3://AKID:s3cr3t@host/uploads?pathstyle=true":   `unknown parameter "pathstyle"`,
		"s3://AKID:s3cr3t@host/uploads?region=a;b":       "query is malformed",
		"s3://AKID:s3cr3t@host/uploads?region=us%zzeast": "query is malformed",
	} {
		_, err := filestore.ParseS3URL(raw)
		if err == nil {
			t.Errorf("%q was accepted", raw)
			continue
		}
		if !strings.Contains(err.Error(), wantInError) {
			t.Errorf("%q: error %q does not say %q", raw, err, wantInError)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%q: error %q repeats the secret", raw, err)
		}
	}
}
