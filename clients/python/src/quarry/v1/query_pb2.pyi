from google.protobuf import struct_pb2 as _struct_pb2
from quarry.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SnqlRequest(_message.Message):
    __slots__ = ("dataset", "query", "tenant_ids", "settings")
    DATASET_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    TENANT_IDS_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    dataset: str
    query: str
    tenant_ids: _common_pb2.TenantIds
    settings: _common_pb2.QuerySettings
    def __init__(self, dataset: _Optional[str] = ..., query: _Optional[str] = ..., tenant_ids: _Optional[_Union[_common_pb2.TenantIds, _Mapping]] = ..., settings: _Optional[_Union[_common_pb2.QuerySettings, _Mapping]] = ...) -> None: ...

class QueryRequest(_message.Message):
    __slots__ = ("dataset", "query", "tenant_ids", "settings")
    DATASET_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    TENANT_IDS_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    dataset: str
    query: str
    tenant_ids: _common_pb2.TenantIds
    settings: _common_pb2.QuerySettings
    def __init__(self, dataset: _Optional[str] = ..., query: _Optional[str] = ..., tenant_ids: _Optional[_Union[_common_pb2.TenantIds, _Mapping]] = ..., settings: _Optional[_Union[_common_pb2.QuerySettings, _Mapping]] = ...) -> None: ...

class MqlRollup(_message.Message):
    __slots__ = ("granularity", "interval", "with_totals", "orderby")
    GRANULARITY_FIELD_NUMBER: _ClassVar[int]
    INTERVAL_FIELD_NUMBER: _ClassVar[int]
    WITH_TOTALS_FIELD_NUMBER: _ClassVar[int]
    ORDERBY_FIELD_NUMBER: _ClassVar[int]
    granularity: int
    interval: int
    with_totals: bool
    orderby: str
    def __init__(self, granularity: _Optional[int] = ..., interval: _Optional[int] = ..., with_totals: _Optional[bool] = ..., orderby: _Optional[str] = ...) -> None: ...

class MqlScope(_message.Message):
    __slots__ = ("org_ids", "project_ids", "use_case_id")
    ORG_IDS_FIELD_NUMBER: _ClassVar[int]
    PROJECT_IDS_FIELD_NUMBER: _ClassVar[int]
    USE_CASE_ID_FIELD_NUMBER: _ClassVar[int]
    org_ids: _containers.RepeatedScalarFieldContainer[int]
    project_ids: _containers.RepeatedScalarFieldContainer[int]
    use_case_id: str
    def __init__(self, org_ids: _Optional[_Iterable[int]] = ..., project_ids: _Optional[_Iterable[int]] = ..., use_case_id: _Optional[str] = ...) -> None: ...

class MqlContext(_message.Message):
    __slots__ = ("entity", "start", "end", "rollup", "scope", "limit", "offset", "indexer_mappings")
    class IndexerMappingsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    ROLLUP_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    INDEXER_MAPPINGS_FIELD_NUMBER: _ClassVar[int]
    entity: str
    start: str
    end: str
    rollup: MqlRollup
    scope: MqlScope
    limit: int
    offset: int
    indexer_mappings: _containers.ScalarMap[str, int]
    def __init__(self, entity: _Optional[str] = ..., start: _Optional[str] = ..., end: _Optional[str] = ..., rollup: _Optional[_Union[MqlRollup, _Mapping]] = ..., scope: _Optional[_Union[MqlScope, _Mapping]] = ..., limit: _Optional[int] = ..., offset: _Optional[int] = ..., indexer_mappings: _Optional[_Mapping[str, int]] = ...) -> None: ...

class MqlRequest(_message.Message):
    __slots__ = ("dataset", "mql", "mql_context", "query", "tenant_ids", "settings")
    DATASET_FIELD_NUMBER: _ClassVar[int]
    MQL_FIELD_NUMBER: _ClassVar[int]
    MQL_CONTEXT_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    TENANT_IDS_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    dataset: str
    mql: str
    mql_context: MqlContext
    query: str
    tenant_ids: _common_pb2.TenantIds
    settings: _common_pb2.QuerySettings
    def __init__(self, dataset: _Optional[str] = ..., mql: _Optional[str] = ..., mql_context: _Optional[_Union[MqlContext, _Mapping]] = ..., query: _Optional[str] = ..., tenant_ids: _Optional[_Union[_common_pb2.TenantIds, _Mapping]] = ..., settings: _Optional[_Union[_common_pb2.QuerySettings, _Mapping]] = ...) -> None: ...

class QueryResponse(_message.Message):
    __slots__ = ("data", "meta", "timing", "stats", "quota_allowance", "sql", "totals")
    DATA_FIELD_NUMBER: _ClassVar[int]
    META_FIELD_NUMBER: _ClassVar[int]
    TIMING_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    QUOTA_ALLOWANCE_FIELD_NUMBER: _ClassVar[int]
    SQL_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[_struct_pb2.Struct]
    meta: _containers.RepeatedCompositeFieldContainer[_common_pb2.ColumnMeta]
    timing: _common_pb2.Timing
    stats: _common_pb2.Stats
    quota_allowance: _common_pb2.QuotaAllowance
    sql: str
    totals: _struct_pb2.Struct
    def __init__(self, data: _Optional[_Iterable[_Union[_struct_pb2.Struct, _Mapping]]] = ..., meta: _Optional[_Iterable[_Union[_common_pb2.ColumnMeta, _Mapping]]] = ..., timing: _Optional[_Union[_common_pb2.Timing, _Mapping]] = ..., stats: _Optional[_Union[_common_pb2.Stats, _Mapping]] = ..., quota_allowance: _Optional[_Union[_common_pb2.QuotaAllowance, _Mapping]] = ..., sql: _Optional[str] = ..., totals: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
