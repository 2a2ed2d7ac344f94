package schemas

import "testing"

func TestContractLoads(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != "1.1.0" {
		t.Fatalf("info.version = %q, want 1.1.0", c.Version)
	}
}
