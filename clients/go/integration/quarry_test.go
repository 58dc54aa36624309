package integration_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	quarryv1 "quarry/clients/go/gen/quarry/v1"
)

// The known rows of scripts/test-server.ts all sit on 2024-01-01.
const dayRange = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')"

var tenant = &quarryv1.TenantIds{OrganizationId: 1, Referrer: "clients.go.test"}

func callContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestSnql(t *testing.T) {
	eachProtocol(t, func(t *testing.T, client quarry) {
		response, err := client.snql(callContext(t), &quarryv1.SnqlRequest{
			Dataset:   "events",
			Query:     "MATCH (events) SELECT count() AS count BY project_id WHERE " + dayRange + " AND project_id IN tuple(1, 2) ORDER BY project_id ASC",
			TenantIds: tenant,
			Settings:  &quarryv1.QuerySettings{Debug: true},
		})
		if err != nil {
			t.Fatalf("Snql: %v", err)
		}
		var rows []string
		for _, row := range response.GetData() {
			rows = append(rows, strconv.FormatFloat(row.GetFields()["project_id"].GetNumberValue(), 'f', -1, 64)+":"+
				strconv.FormatFloat(row.GetFields()["count"].GetNumberValue(), 'f', -1, 64))
		}
		if got, want := strings.Join(rows, " "), "1:3 2:2"; got != want {
			t.Errorf("rows (project_id:count) = %q, want %q", got, want)
		}
		var meta []string
		for _, column := range response.GetMeta() {
			meta = append(meta, column.GetName()+" "+column.GetType())
		}
		if got, want := strings.Join(meta, ", "), "project_id UInt64, count UInt64"; got != want {
			t.Errorf("meta = %q, want %q", got, want)
		}
		if !strings.Contains(response.GetSql(), "FROM errors_local") {
			t.Errorf("debug sql = %q, want it to read errors_local", response.GetSql())
		}
		if response.GetStats().GetColumnstoreTable() != "errors_local" {
			t.Errorf("stats.columnstore_table = %q", response.GetStats().GetColumnstoreTable())
		}
		if !response.GetQuotaAllowance().GetSummary().GetIsSuccessful() {
			t.Errorf("quota_allowance.summary.is_successful = false")
		}
	})
}

func TestMql(t *testing.T) {
	eachProtocol(t, func(t *testing.T, client quarry) {
		response, err := client.mql(callContext(t), &quarryv1.MqlRequest{
			Dataset: "generic_metrics",
			Mql:     `sum(c:custom/page_views@none){environment:"production"} by (page)`,
			MqlContext: &quarryv1.MqlContext{
				Start:  "2024-01-01T00:00:00+00:00",
				End:    "2024-01-02T00:00:00+00:00",
				Rollup: &quarryv1.MqlRollup{Granularity: 60, WithTotals: proto.Bool(true), Orderby: "DESC"},
				Scope:  &quarryv1.MqlScope{OrgIds: []uint64{1}, ProjectIds: []uint64{1}, UseCaseId: "custom"},
				IndexerMappings: map[string]int64{
					"c:custom/page_views@none": 65536,
					"environment":              202,
					"page":                     65600,
				},
			},
			TenantIds: tenant,
		})
		if err != nil {
			t.Fatalf("Mql: %v", err)
		}
		views := map[string]float64{}
		for _, row := range response.GetData() {
			views[row.GetFields()["page"].GetStringValue()] = row.GetFields()["aggregate_value"].GetNumberValue()
		}
		if len(views) != 2 || views["/"] != 5 || views["/pricing"] != 5 {
			t.Errorf("page views by page = %v, want map[/:5 /pricing:5]", views)
		}
		if total := response.GetTotals().GetFields()["aggregate_value"].GetNumberValue(); total != 10 {
			t.Errorf("totals.aggregate_value = %v, want 10", total)
		}
	})
}

func TestRefusedQueryCarriesErrorDetail(t *testing.T) {
	eachProtocol(t, func(t *testing.T, client quarry) {
		_, err := client.snql(callContext(t), &quarryv1.SnqlRequest{
			Dataset:   "events",
			Query:     "MATCH (events)\nSELECT count() AS c BY\nWHERE project_id = 1",
			TenantIds: tenant,
		})
		if err == nil {
			t.Fatal("Snql accepted a query with a syntax error")
		}
		code, detail := client.failure(err)
		if code != "invalid_argument" {
			t.Errorf("code = %q, want invalid_argument (%v)", code, err)
		}
		if detail == nil {
			t.Fatalf("no quarry.v1.ErrorDetail in %v", err)
		}
		if detail.GetType() != "invalid_query" || !strings.Contains(detail.GetMessage(), "syntax error") {
			t.Errorf("detail = %q %q, want invalid_query and a syntax error", detail.GetType(), detail.GetMessage())
		}
		if detail.Line == nil || detail.Column == nil || detail.GetLine() != 3 || detail.GetColumn() != 1 {
			t.Errorf("detail line:column = %v:%v, want 3:1 (the WHERE after BY)", detail.Line, detail.Column)
		}
	})
}

func TestSubscriptionCreateListGetDelete(t *testing.T) {
	eachProtocol(t, func(t *testing.T, client quarry) {
		ctx := callContext(t)
		query := "MATCH (events) SELECT count() AS count"
		created, err := client.create(ctx, &quarryv1.CreateSubscriptionRequest{
			Dataset:    "events",
			Entity:     "events",
			ProjectId:  1,
			Query:      query,
			TimeWindow: 3600,
			Resolution: 60,
			TenantIds:  &quarryv1.TenantIds{OrganizationId: 1, Referrer: "x"},
		})
		if err != nil {
			t.Fatalf("CreateSubscription: %v", err)
		}
		id := created.GetSubscriptionId()
		partitionText, key, ok := strings.Cut(id, "/")
		partition, parseErr := strconv.ParseUint(partitionText, 10, 32)
		if !ok || parseErr != nil || len(key) != 32 {
			t.Fatalf("subscription_id = %q, want <partition>/<32 hex digits>", id)
		}

		listed, err := client.list(ctx, &quarryv1.ListSubscriptionsRequest{Dataset: "events", Entity: "events"})
		if err != nil {
			t.Fatalf("ListSubscriptions: %v", err)
		}
		var found *quarryv1.Subscription
		for _, subscription := range listed.GetSubscriptions() {
			if subscription.GetSubscriptionId() == id {
				found = subscription
			}
		}
		if found == nil {
			t.Fatalf("ListSubscriptions does not list %s", id)
		}
		if found.GetQuery() != query || found.GetTimeWindow() != 3600 || found.GetResolution() != 60 || found.GetProjectId() != 1 || found.GetOrganizationId() != 1 {
			t.Errorf("listed subscription = %v", found)
		}

		got, err := client.get(ctx, &quarryv1.GetSubscriptionRequest{Dataset: "events", Entity: "events", Partition: uint32(partition), Key: key})
		if err != nil {
			t.Fatalf("GetSubscription: %v", err)
		}
		if got.GetSubscriptionId() != id || got.GetEntity() != "events" || got.GetSubscriptionType() != "snql" {
			t.Errorf("GetSubscription = %v", got)
		}
		if got.GetStatus().GetPublished() != 0 {
			t.Errorf("a subscription of a server without a scheduler was published %d times", got.GetStatus().GetPublished())
		}

		if _, err := client.delete(ctx, &quarryv1.DeleteSubscriptionRequest{Dataset: "events", Entity: "events", Partition: uint32(partition), Key: key}); err != nil {
			t.Fatalf("DeleteSubscription: %v", err)
		}
		listed, err = client.list(ctx, &quarryv1.ListSubscriptionsRequest{Dataset: "events", Entity: "events"})
		if err != nil {
			t.Fatalf("ListSubscriptions after delete: %v", err)
		}
		for _, subscription := range listed.GetSubscriptions() {
			if subscription.GetSubscriptionId() == id {
				t.Errorf("ListSubscriptions still lists %s after its delete", id)
			}
		}
		_, err = client.get(ctx, &quarryv1.GetSubscriptionRequest{Dataset: "events", Entity: "events", Partition: uint32(partition), Key: key})
		if code, detail := client.failure(err); code != "not_found" || detail.GetType() != "not_found" {
			t.Errorf("GetSubscription after delete: code %q, detail %v (err %v), want not_found", code, detail, err)
		}
	})
}

func TestRefusedSubscriptionNamesTheField(t *testing.T) {
	eachProtocol(t, func(t *testing.T, client quarry) {
		_, err := client.create(callContext(t), &quarryv1.CreateSubscriptionRequest{
			Dataset:    "events",
			Entity:     "events",
			ProjectId:  1,
			Query:      "MATCH (events) SELECT count() AS count",
			TimeWindow: 30,
			Resolution: 60,
			TenantIds:  tenant,
		})
		if err == nil {
			t.Fatal("CreateSubscription accepted a 30 s time_window")
		}
		code, detail := client.failure(err)
		if code != "invalid_argument" || detail.GetType() != "subscription" || detail.GetField() != "time_window" {
			t.Errorf("code %q, detail %v, want invalid_argument, subscription, field time_window", code, detail)
		}
	})
}
