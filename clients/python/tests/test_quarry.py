"""The generated Python clients against a real Quarry server, once per client and protocol."""

from __future__ import annotations

import re

import pytest
from quarry_clients import Quarry

from quarry.v1 import common_pb2, query_pb2, subscription_pb2

# The known rows of scripts/test-server.ts all sit on 2024-01-01.
DAY_RANGE = "timestamp >= toDateTime('2024-01-01T00:00:00') AND timestamp < toDateTime('2024-01-02T00:00:00')"
TENANT = common_pb2.TenantIds(organization_id=1, referrer="clients.python.test")


def test_snql(quarry: Quarry) -> None:
    response = quarry.snql(
        query_pb2.SnqlRequest(
            dataset="events",
            query=f"MATCH (events) SELECT count() AS count BY project_id WHERE {DAY_RANGE} AND project_id IN tuple(1, 2) ORDER BY project_id ASC",
            tenant_ids=TENANT,
            settings=common_pb2.QuerySettings(debug=True),
        )
    )
    assert [(row["project_id"], row["count"]) for row in response.data] == [(1, 3), (2, 2)]
    assert [(column.name, column.type) for column in response.meta] == [("project_id", "UInt64"), ("count", "UInt64")]
    assert response.HasField("sql") and "FROM errors_local" in response.sql
    assert response.stats.columnstore_table == "errors_local"
    assert "execute" in response.timing.marks_ms
    assert response.quota_allowance.summary.is_successful


def test_mql(quarry: Quarry) -> None:
    response = quarry.mql(
        query_pb2.MqlRequest(
            dataset="generic_metrics",
            mql='sum(c:custom/page_views@none){environment:"production"} by (page)',
            mql_context=query_pb2.MqlContext(
                start="2024-01-01T00:00:00+00:00",
                end="2024-01-02T00:00:00+00:00",
                rollup=query_pb2.MqlRollup(granularity=60, with_totals=True, orderby="DESC"),
                scope=query_pb2.MqlScope(org_ids=[1], project_ids=[1], use_case_id="custom"),
                indexer_mappings={"c:custom/page_views@none": 65536, "environment": 202, "page": 65600},
            ),
            tenant_ids=TENANT,
        )
    )
    assert {row["page"]: row["aggregate_value"] for row in response.data} == {"/": 5, "/pricing": 5}
    assert response.totals["aggregate_value"] == 10


def test_refused_query_carries_error_detail(quarry: Quarry) -> None:
    with pytest.raises(quarry.errors) as raised:
        quarry.snql(
            query_pb2.SnqlRequest(
                dataset="events",
                query="MATCH (events)\nSELECT count() AS c BY\nWHERE project_id = 1",
                tenant_ids=TENANT,
            )
        )
    failure = quarry.failure(raised.value)
    assert failure.code == "invalid_argument"
    assert failure.detail is not None, f"no quarry.v1.ErrorDetail in {raised.value!r}"
    assert failure.detail.type == "invalid_query"
    assert "syntax error" in failure.detail.message
    # The WHERE right after BY: line 3, column 1 of the query text.
    assert failure.detail.HasField("line") and failure.detail.HasField("column")
    assert (failure.detail.line, failure.detail.column) == (3, 1)


def test_subscription_create_list_get_delete(quarry: Quarry) -> None:
    query = "MATCH (events) SELECT count() AS count"
    created = quarry.create_subscription(
        subscription_pb2.CreateSubscriptionRequest(
            dataset="events",
            entity="events",
            project_id=1,
            time_window=3600,
            resolution=60,
            query=query,
            tenant_ids=common_pb2.TenantIds(organization_id=1, referrer="x"),
        )
    )
    match = re.fullmatch(r"(\d+)/([0-9a-f]{32})", created.subscription_id)
    assert match, f"subscription_id {created.subscription_id!r} is not <partition>/<32 hex digits>"
    partition, key = int(match.group(1)), match.group(2)

    listed = quarry.list_subscriptions(subscription_pb2.ListSubscriptionsRequest(dataset="events", entity="events"))
    [found] = [s for s in listed.subscriptions if s.subscription_id == created.subscription_id]
    assert (found.query, found.time_window, found.resolution, found.project_id, found.organization_id) == (query, 3600, 60, 1, 1)
    assert found.subscription_type == "snql"

    got = quarry.get_subscription(subscription_pb2.GetSubscriptionRequest(dataset="events", entity="events", partition=partition, key=key))
    assert got.subscription_id == created.subscription_id and got.entity == "events"
    # The test server runs no scheduler: stored, never run.
    assert got.status.published == 0 and not got.status.HasField("last_run_at")

    quarry.delete_subscription(subscription_pb2.DeleteSubscriptionRequest(dataset="events", entity="events", partition=partition, key=key))
    listed = quarry.list_subscriptions(subscription_pb2.ListSubscriptionsRequest(dataset="events", entity="events"))
    assert created.subscription_id not in [s.subscription_id for s in listed.subscriptions]
    with pytest.raises(quarry.errors) as raised:
        quarry.get_subscription(subscription_pb2.GetSubscriptionRequest(dataset="events", entity="events", partition=partition, key=key))
    failure = quarry.failure(raised.value)
    assert failure.code == "not_found"
    assert failure.detail is not None and failure.detail.type == "not_found"


def test_refused_subscription_names_the_field(quarry: Quarry) -> None:
    with pytest.raises(quarry.errors) as raised:
        quarry.create_subscription(
            subscription_pb2.CreateSubscriptionRequest(
                dataset="events",
                entity="events",
                project_id=1,
                time_window=30,
                resolution=60,
                query="MATCH (events) SELECT count() AS count",
                tenant_ids=TENANT,
            )
        )
    failure = quarry.failure(raised.value)
    assert failure.code == "invalid_argument"
    assert failure.detail is not None
    assert (failure.detail.type, failure.detail.field) == ("subscription", "time_window")
