"""The clients under test: the grpcio stubs and the connectrpc clients behind one shape, so that
one set of tests runs over every protocol and both libraries."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from grpc_status import rpc_status
from pyqwest import HTTPVersion, SyncClient, SyncHTTPTransport

from quarry.v1 import common_pb2, query_pb2_grpc, subscription_pb2_grpc
from quarry.v1.query_connect import QueryServiceClientSync
from quarry.v1.subscription_connect import SubscriptionServiceClientSync

ERROR_DETAIL = common_pb2.ErrorDetail.DESCRIPTOR.full_name


@dataclass
class Failure:
    """A failed call as the tests read it: the code's name and the typed detail."""

    code: str
    detail: common_pb2.ErrorDetail | None


@dataclass
class Quarry:
    """What the tests need of a client, so that one set of tests runs over every protocol and
    both Python libraries: the grpcio stubs and the connectrpc clients."""

    snql: Callable[[Any], Any]
    mql: Callable[[Any], Any]
    create_subscription: Callable[[Any], Any]
    list_subscriptions: Callable[[Any], Any]
    get_subscription: Callable[[Any], Any]
    delete_subscription: Callable[[Any], Any]
    errors: type[Exception]
    failure: Callable[[Exception], Failure]


def _grpcio_failure(error: Exception) -> Failure:
    assert isinstance(error, grpc.Call)
    code = error.code().name.lower()
    # grpc-status-details-bin, decoded: a google.rpc.Status whose details are Any messages.
    status = rpc_status.from_call(error)
    for detail in status.details if status else []:
        if detail.Is(common_pb2.ErrorDetail.DESCRIPTOR):
            unpacked = common_pb2.ErrorDetail()
            detail.Unpack(unpacked)
            return Failure(code, unpacked)
    return Failure(code, None)


def _connect_failure(error: Exception) -> Failure:
    assert isinstance(error, ConnectError)
    for detail in error.details:
        if detail.type_name == ERROR_DETAIL:
            return Failure(error.code.value, common_pb2.ErrorDetail.FromString(detail.message_bytes))
    return Failure(error.code.value, None)


def _grpcio(url: str) -> Iterator[Quarry]:
    with grpc.insecure_channel(url.removeprefix("http://")) as channel:
        queries = query_pb2_grpc.QueryServiceStub(channel)
        subscriptions = subscription_pb2_grpc.SubscriptionServiceStub(channel)
        yield Quarry(
            snql=lambda request: queries.Snql(request, timeout=30),
            mql=lambda request: queries.Mql(request, timeout=30),
            create_subscription=lambda request: subscriptions.CreateSubscription(request, timeout=30),
            list_subscriptions=lambda request: subscriptions.ListSubscriptions(request, timeout=30),
            get_subscription=lambda request: subscriptions.GetSubscription(request, timeout=30),
            delete_subscription=lambda request: subscriptions.DeleteSubscription(request, timeout=30),
            errors=grpc.RpcError,
            failure=_grpcio_failure,
        )


def _connectrpc(url: str, protocol: ProtocolType, http_version: HTTPVersion) -> Iterator[Quarry]:
    # Without TLS, pyqwest speaks HTTP/1.1 unless told HTTP/2 (h2c with prior knowledge).
    with SyncHTTPTransport(http_version=http_version) as transport:
        http = SyncClient(transport)
        queries = QueryServiceClientSync(url, protocol=protocol, http_client=http, timeout_ms=30_000)
        subscriptions = SubscriptionServiceClientSync(url, protocol=protocol, http_client=http, timeout_ms=30_000)
        yield Quarry(
            snql=queries.snql,
            mql=queries.mql,
            create_subscription=subscriptions.create_subscription,
            list_subscriptions=subscriptions.list_subscriptions,
            get_subscription=subscriptions.get_subscription,
            delete_subscription=subscriptions.delete_subscription,
            errors=ConnectError,
            failure=_connect_failure,
        )


CLIENTS: dict[str, Callable[[str], Iterator[Quarry]]] = {
    "grpcio (gRPC, h2c)": _grpcio,
    "connectrpc (Connect, HTTP/1.1)": lambda url: _connectrpc(url, ProtocolType.CONNECT, HTTPVersion.HTTP1),
    "connectrpc (Connect, h2c)": lambda url: _connectrpc(url, ProtocolType.CONNECT, HTTPVersion.HTTP2),
    "connectrpc (gRPC, h2c)": lambda url: _connectrpc(url, ProtocolType.GRPC, HTTPVersion.HTTP2),
    "connectrpc (gRPC-Web, HTTP/1.1)": lambda url: _connectrpc(url, ProtocolType.GRPC_WEB, HTTPVersion.HTTP1),
}
