from quarry.v1 import common_pb2 as _common_pb2
from quarry.v1 import query_pb2 as _query_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RunSubscriptionWindowRequest(_message.Message):
    __slots__ = ("subscription_json", "window_end", "referrer", "consistent")
    SUBSCRIPTION_JSON_FIELD_NUMBER: _ClassVar[int]
    WINDOW_END_FIELD_NUMBER: _ClassVar[int]
    REFERRER_FIELD_NUMBER: _ClassVar[int]
    CONSISTENT_FIELD_NUMBER: _ClassVar[int]
    subscription_json: str
    window_end: int
    referrer: str
    consistent: bool
    def __init__(self, subscription_json: _Optional[str] = ..., window_end: _Optional[int] = ..., referrer: _Optional[str] = ..., consistent: _Optional[bool] = ...) -> None: ...

class CreateSubscriptionRequest(_message.Message):
    __slots__ = ("dataset", "entity", "project_id", "query", "time_window", "resolution", "tenant_ids", "subscription_type", "request_name", "request_version", "time_series_request", "organization")
    DATASET_FIELD_NUMBER: _ClassVar[int]
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    TIME_WINDOW_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    TENANT_IDS_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTION_TYPE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_NAME_FIELD_NUMBER: _ClassVar[int]
    REQUEST_VERSION_FIELD_NUMBER: _ClassVar[int]
    TIME_SERIES_REQUEST_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    dataset: str
    entity: str
    project_id: int
    query: str
    time_window: int
    resolution: int
    tenant_ids: _common_pb2.TenantIds
    subscription_type: str
    request_name: str
    request_version: str
    time_series_request: bytes
    organization: int
    def __init__(self, dataset: _Optional[str] = ..., entity: _Optional[str] = ..., project_id: _Optional[int] = ..., query: _Optional[str] = ..., time_window: _Optional[int] = ..., resolution: _Optional[int] = ..., tenant_ids: _Optional[_Union[_common_pb2.TenantIds, _Mapping]] = ..., subscription_type: _Optional[str] = ..., request_name: _Optional[str] = ..., request_version: _Optional[str] = ..., time_series_request: _Optional[bytes] = ..., organization: _Optional[int] = ...) -> None: ...

class CreateSubscriptionResponse(_message.Message):
    __slots__ = ("subscription_id",)
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    subscription_id: str
    def __init__(self, subscription_id: _Optional[str] = ...) -> None: ...

class DeleteSubscriptionRequest(_message.Message):
    __slots__ = ("dataset", "entity", "partition", "key")
    DATASET_FIELD_NUMBER: _ClassVar[int]
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    PARTITION_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    dataset: str
    entity: str
    partition: int
    key: str
    def __init__(self, dataset: _Optional[str] = ..., entity: _Optional[str] = ..., partition: _Optional[int] = ..., key: _Optional[str] = ...) -> None: ...

class DeleteSubscriptionResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListSubscriptionsRequest(_message.Message):
    __slots__ = ("dataset", "entity")
    DATASET_FIELD_NUMBER: _ClassVar[int]
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    dataset: str
    entity: str
    def __init__(self, dataset: _Optional[str] = ..., entity: _Optional[str] = ...) -> None: ...

class ListSubscriptionsResponse(_message.Message):
    __slots__ = ("subscriptions",)
    SUBSCRIPTIONS_FIELD_NUMBER: _ClassVar[int]
    subscriptions: _containers.RepeatedCompositeFieldContainer[Subscription]
    def __init__(self, subscriptions: _Optional[_Iterable[_Union[Subscription, _Mapping]]] = ...) -> None: ...

class GetSubscriptionRequest(_message.Message):
    __slots__ = ("dataset", "entity", "partition", "key")
    DATASET_FIELD_NUMBER: _ClassVar[int]
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    PARTITION_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    dataset: str
    entity: str
    partition: int
    key: str
    def __init__(self, dataset: _Optional[str] = ..., entity: _Optional[str] = ..., partition: _Optional[int] = ..., key: _Optional[str] = ...) -> None: ...

class Subscription(_message.Message):
    __slots__ = ("subscription_id", "dataset", "entity", "project_id", "query", "time_window", "resolution", "subscription_type", "organization_id", "created_at", "status")
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    DATASET_FIELD_NUMBER: _ClassVar[int]
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    TIME_WINDOW_FIELD_NUMBER: _ClassVar[int]
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTION_TYPE_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    subscription_id: str
    dataset: str
    entity: str
    project_id: int
    query: str
    time_window: int
    resolution: int
    subscription_type: str
    organization_id: int
    created_at: str
    status: SubscriptionStatus
    def __init__(self, subscription_id: _Optional[str] = ..., dataset: _Optional[str] = ..., entity: _Optional[str] = ..., project_id: _Optional[int] = ..., query: _Optional[str] = ..., time_window: _Optional[int] = ..., resolution: _Optional[int] = ..., subscription_type: _Optional[str] = ..., organization_id: _Optional[int] = ..., created_at: _Optional[str] = ..., status: _Optional[_Union[SubscriptionStatus, _Mapping]] = ...) -> None: ...

class SubscriptionStatus(_message.Message):
    __slots__ = ("last_window", "last_run_at", "last_result_at", "last_error", "last_error_at", "published", "failed", "skipped_stale")
    LAST_WINDOW_FIELD_NUMBER: _ClassVar[int]
    LAST_RUN_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_RESULT_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_FIELD_NUMBER: _ClassVar[int]
    LAST_ERROR_AT_FIELD_NUMBER: _ClassVar[int]
    PUBLISHED_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_STALE_FIELD_NUMBER: _ClassVar[int]
    last_window: str
    last_run_at: str
    last_result_at: str
    last_error: str
    last_error_at: str
    published: int
    failed: int
    skipped_stale: int
    def __init__(self, last_window: _Optional[str] = ..., last_run_at: _Optional[str] = ..., last_result_at: _Optional[str] = ..., last_error: _Optional[str] = ..., last_error_at: _Optional[str] = ..., published: _Optional[int] = ..., failed: _Optional[int] = ..., skipped_stale: _Optional[int] = ...) -> None: ...
