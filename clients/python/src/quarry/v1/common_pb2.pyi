from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TenantIds(_message.Message):
    __slots__ = ("organization_id", "referrer", "project_id", "extra")
    class ExtraEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    REFERRER_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    EXTRA_FIELD_NUMBER: _ClassVar[int]
    organization_id: int
    referrer: str
    project_id: int
    extra: _containers.ScalarMap[str, str]
    def __init__(self, organization_id: _Optional[int] = ..., referrer: _Optional[str] = ..., project_id: _Optional[int] = ..., extra: _Optional[_Mapping[str, str]] = ...) -> None: ...

class QuerySettings(_message.Message):
    __slots__ = ("debug", "consistent", "turbo", "dry_run")
    DEBUG_FIELD_NUMBER: _ClassVar[int]
    CONSISTENT_FIELD_NUMBER: _ClassVar[int]
    TURBO_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    debug: bool
    consistent: bool
    turbo: bool
    dry_run: bool
    def __init__(self, debug: _Optional[bool] = ..., consistent: _Optional[bool] = ..., turbo: _Optional[bool] = ..., dry_run: _Optional[bool] = ...) -> None: ...

class ColumnMeta(_message.Message):
    __slots__ = ("name", "type")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ...) -> None: ...

class Timing(_message.Message):
    __slots__ = ("timestamp", "duration_ms", "marks_ms", "tags")
    class MarksMsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class TagsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TIMESTAMP_FIELD_NUMBER: _ClassVar[int]
    DURATION_MS_FIELD_NUMBER: _ClassVar[int]
    MARKS_MS_FIELD_NUMBER: _ClassVar[int]
    TAGS_FIELD_NUMBER: _ClassVar[int]
    timestamp: int
    duration_ms: int
    marks_ms: _containers.ScalarMap[str, int]
    tags: _containers.ScalarMap[str, str]
    def __init__(self, timestamp: _Optional[int] = ..., duration_ms: _Optional[int] = ..., marks_ms: _Optional[_Mapping[str, int]] = ..., tags: _Optional[_Mapping[str, str]] = ...) -> None: ...

class Stats(_message.Message):
    __slots__ = ("columnstore_table", "final", "sample", "consistent", "result_rows", "result_cols", "query_id", "referrer", "max_threads", "cache_status", "rows_read", "bytes_read")
    COLUMNSTORE_TABLE_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    SAMPLE_FIELD_NUMBER: _ClassVar[int]
    CONSISTENT_FIELD_NUMBER: _ClassVar[int]
    RESULT_ROWS_FIELD_NUMBER: _ClassVar[int]
    RESULT_COLS_FIELD_NUMBER: _ClassVar[int]
    QUERY_ID_FIELD_NUMBER: _ClassVar[int]
    REFERRER_FIELD_NUMBER: _ClassVar[int]
    MAX_THREADS_FIELD_NUMBER: _ClassVar[int]
    CACHE_STATUS_FIELD_NUMBER: _ClassVar[int]
    ROWS_READ_FIELD_NUMBER: _ClassVar[int]
    BYTES_READ_FIELD_NUMBER: _ClassVar[int]
    columnstore_table: str
    final: bool
    sample: float
    consistent: bool
    result_rows: int
    result_cols: int
    query_id: str
    referrer: str
    max_threads: int
    cache_status: str
    rows_read: int
    bytes_read: int
    def __init__(self, columnstore_table: _Optional[str] = ..., final: _Optional[bool] = ..., sample: _Optional[float] = ..., consistent: _Optional[bool] = ..., result_rows: _Optional[int] = ..., result_cols: _Optional[int] = ..., query_id: _Optional[str] = ..., referrer: _Optional[str] = ..., max_threads: _Optional[int] = ..., cache_status: _Optional[str] = ..., rows_read: _Optional[int] = ..., bytes_read: _Optional[int] = ...) -> None: ...

class PolicyAllowance(_message.Message):
    __slots__ = ("can_run", "max_threads", "explanation", "is_throttled", "throttle_threshold", "rejection_threshold", "quota_used", "quota_unit", "suggestion", "max_bytes_to_read")
    CAN_RUN_FIELD_NUMBER: _ClassVar[int]
    MAX_THREADS_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    IS_THROTTLED_FIELD_NUMBER: _ClassVar[int]
    THROTTLE_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    REJECTION_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    QUOTA_USED_FIELD_NUMBER: _ClassVar[int]
    QUOTA_UNIT_FIELD_NUMBER: _ClassVar[int]
    SUGGESTION_FIELD_NUMBER: _ClassVar[int]
    MAX_BYTES_TO_READ_FIELD_NUMBER: _ClassVar[int]
    can_run: bool
    max_threads: int
    explanation: _struct_pb2.Struct
    is_throttled: bool
    throttle_threshold: float
    rejection_threshold: float
    quota_used: float
    quota_unit: str
    suggestion: str
    max_bytes_to_read: int
    def __init__(self, can_run: _Optional[bool] = ..., max_threads: _Optional[int] = ..., explanation: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., is_throttled: _Optional[bool] = ..., throttle_threshold: _Optional[float] = ..., rejection_threshold: _Optional[float] = ..., quota_used: _Optional[float] = ..., quota_unit: _Optional[str] = ..., suggestion: _Optional[str] = ..., max_bytes_to_read: _Optional[int] = ...) -> None: ...

class PolicyVerdict(_message.Message):
    __slots__ = ("policy", "quota_used", "quota_unit", "suggestion", "storage_key", "threshold")
    POLICY_FIELD_NUMBER: _ClassVar[int]
    QUOTA_USED_FIELD_NUMBER: _ClassVar[int]
    QUOTA_UNIT_FIELD_NUMBER: _ClassVar[int]
    SUGGESTION_FIELD_NUMBER: _ClassVar[int]
    STORAGE_KEY_FIELD_NUMBER: _ClassVar[int]
    THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    policy: str
    quota_used: float
    quota_unit: str
    suggestion: str
    storage_key: str
    threshold: float
    def __init__(self, policy: _Optional[str] = ..., quota_used: _Optional[float] = ..., quota_unit: _Optional[str] = ..., suggestion: _Optional[str] = ..., storage_key: _Optional[str] = ..., threshold: _Optional[float] = ...) -> None: ...

class QuotaSummary(_message.Message):
    __slots__ = ("threads_used", "is_successful", "is_rejected", "is_throttled", "rejection_storage_key", "throttle_storage_key", "quota_used", "quota_unit", "rejected_by", "throttled_by")
    THREADS_USED_FIELD_NUMBER: _ClassVar[int]
    IS_SUCCESSFUL_FIELD_NUMBER: _ClassVar[int]
    IS_REJECTED_FIELD_NUMBER: _ClassVar[int]
    IS_THROTTLED_FIELD_NUMBER: _ClassVar[int]
    REJECTION_STORAGE_KEY_FIELD_NUMBER: _ClassVar[int]
    THROTTLE_STORAGE_KEY_FIELD_NUMBER: _ClassVar[int]
    QUOTA_USED_FIELD_NUMBER: _ClassVar[int]
    QUOTA_UNIT_FIELD_NUMBER: _ClassVar[int]
    REJECTED_BY_FIELD_NUMBER: _ClassVar[int]
    THROTTLED_BY_FIELD_NUMBER: _ClassVar[int]
    threads_used: int
    is_successful: bool
    is_rejected: bool
    is_throttled: bool
    rejection_storage_key: str
    throttle_storage_key: str
    quota_used: float
    quota_unit: str
    rejected_by: PolicyVerdict
    throttled_by: PolicyVerdict
    def __init__(self, threads_used: _Optional[int] = ..., is_successful: _Optional[bool] = ..., is_rejected: _Optional[bool] = ..., is_throttled: _Optional[bool] = ..., rejection_storage_key: _Optional[str] = ..., throttle_storage_key: _Optional[str] = ..., quota_used: _Optional[float] = ..., quota_unit: _Optional[str] = ..., rejected_by: _Optional[_Union[PolicyVerdict, _Mapping]] = ..., throttled_by: _Optional[_Union[PolicyVerdict, _Mapping]] = ...) -> None: ...

class QuotaAllowance(_message.Message):
    __slots__ = ("summary", "details")
    class DetailsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: PolicyAllowance
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[PolicyAllowance, _Mapping]] = ...) -> None: ...
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    summary: QuotaSummary
    details: _containers.MessageMap[str, PolicyAllowance]
    def __init__(self, summary: _Optional[_Union[QuotaSummary, _Mapping]] = ..., details: _Optional[_Mapping[str, PolicyAllowance]] = ...) -> None: ...

class ErrorDetail(_message.Message):
    __slots__ = ("type", "message", "code", "timing", "stats", "sql", "quota_allowance", "line", "column", "field")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    TIMING_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    SQL_FIELD_NUMBER: _ClassVar[int]
    QUOTA_ALLOWANCE_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    type: str
    message: str
    code: int
    timing: Timing
    stats: Stats
    sql: str
    quota_allowance: QuotaAllowance
    line: int
    column: int
    field: str
    def __init__(self, type: _Optional[str] = ..., message: _Optional[str] = ..., code: _Optional[int] = ..., timing: _Optional[_Union[Timing, _Mapping]] = ..., stats: _Optional[_Union[Stats, _Mapping]] = ..., sql: _Optional[str] = ..., quota_allowance: _Optional[_Union[QuotaAllowance, _Mapping]] = ..., line: _Optional[int] = ..., column: _Optional[int] = ..., field: _Optional[str] = ...) -> None: ...
