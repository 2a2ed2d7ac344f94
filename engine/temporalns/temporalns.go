// Package temporalns prepares a Temporal namespace for the runs: the search attributes they
// carry. It needs only the SDK client, so both the embedded server (engine/devserver) and
// the local cluster (cmd/cluster) use it without linking each other.
package temporalns

import (
	"context"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
)

// AddSearchAttributes adds those of attrs (name and type) that the namespace lacks; a
// namespace that has them all is left alone. Runs use them from the next start of the
// service (engine.Runs asks once per process).
func AddSearchAttributes(ctx context.Context, c client.Client, namespace string, attrs map[string]enumspb.IndexedValueType) error {
	have, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return err
	}
	missing := map[string]enumspb.IndexedValueType{}
	for name, typ := range attrs {
		if _, ok := have.GetCustomAttributes()[name]; !ok {
			missing[name] = typ
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace:        namespace,
		SearchAttributes: missing,
	})
	return err
}
