//! Queries (`IDirect3DQuery9`): event and occlusion (caps.md section 5.4).

use std::sync::{Arc, Mutex};

use bitflags::bitflags;

use super::device::Device;
use crate::error::{Error, Result};

/// `D3DQUERYTYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryType {
    /// D3DQUERYTYPE_VCACHE (4).
    VCache,
    /// D3DQUERYTYPE_RESOURCEMANAGER (5).
    ResourceManager,
    /// D3DQUERYTYPE_VERTEXSTATS (6).
    VertexStats,
    /// D3DQUERYTYPE_EVENT (8): signals once the work before it is done.
    Event,
    /// D3DQUERYTYPE_OCCLUSION (9): samples that passed depth and stencil (9_2 and up).
    Occlusion,
    /// D3DQUERYTYPE_TIMESTAMP (10).
    Timestamp,
    /// D3DQUERYTYPE_TIMESTAMPDISJOINT (11).
    TimestampDisjoint,
    /// D3DQUERYTYPE_TIMESTAMPFREQ (12).
    TimestampFreq,
    /// Any other D3DQUERYTYPE value.
    Other(u32),
}

impl QueryType {
    /// The query type with D3DQUERYTYPE value `raw`.
    pub fn from_raw(raw: u32) -> QueryType {
        match raw {
            4 => QueryType::VCache,
            5 => QueryType::ResourceManager,
            6 => QueryType::VertexStats,
            8 => QueryType::Event,
            9 => QueryType::Occlusion,
            10 => QueryType::Timestamp,
            11 => QueryType::TimestampDisjoint,
            12 => QueryType::TimestampFreq,
            other => QueryType::Other(other),
        }
    }
}

bitflags! {
    /// `D3DISSUE_*`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct IssueFlags: u32 {
        /// D3DISSUE_END.
        const END = 0x1;
        /// D3DISSUE_BEGIN.
        const BEGIN = 0x2;
    }
}

/// What a query answers once its data is available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryData {
    /// Event: always TRUE (seed 001's rule).
    Event(bool),
    /// Occlusion: samples that passed between BEGIN and END.
    Occlusion(u32),
}

#[derive(Debug, Default)]
struct QueryState {
    /// The device's passed-sample counter at BEGIN.
    begin_samples: Option<u64>,
    /// The answer once END was issued and the work before it finished.
    result: Option<QueryData>,
    issued: bool,
}

/// A query object: a cheap, clonable handle.
#[derive(Clone, Debug)]
pub struct Query {
    kind: QueryType,
    state: Arc<Mutex<QueryState>>,
}

impl Query {
    /// The query's type.
    pub fn query_type(&self) -> QueryType {
        self.kind
    }

    /// `GetData`: `Ok(None)` is S_FALSE (not yet available, or never issued).
    pub fn get_data(&self) -> Result<Option<QueryData>> {
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        Ok(s.result)
    }
}

impl Device {
    /// Whether the level offers `kind` (`CreateQuery(type, NULL)`).
    pub fn check_query(&self, kind: QueryType) -> Result<()> {
        match kind {
            QueryType::Event => Ok(()),
            QueryType::Occlusion if self.limits.occlusion_query => Ok(()),
            QueryType::Occlusion => Err(Error::not_available(format!(
                "D3DQUERYTYPE_OCCLUSION is not available at level {} (occlusion queries arrive at 9_2)",
                self.level
            ))),
            other => Err(Error::not_available(format!(
                "query type {other:?} is not available on warp9"
            ))),
        }
    }

    /// `CreateQuery`.
    pub fn create_query(&mut self, kind: QueryType) -> Result<Query> {
        self.check_query(kind)?;
        Ok(Query {
            kind,
            state: Arc::new(Mutex::new(QueryState::default())),
        })
    }

    /// `IDirect3DQuery9::Issue`. Event queries take END only; occlusion
    /// queries BEGIN then END. Work is complete when `issue` returns, so the
    /// data is available immediately after END.
    pub fn issue_query(&mut self, query: &Query, flags: IssueFlags) -> Result<()> {
        self.flush()?;
        let mut s = query.state.lock().unwrap_or_else(|e| e.into_inner());
        match query.kind {
            QueryType::Event => {
                if flags != IssueFlags::END {
                    return Err(Error::invalid_call(
                        "Issue: event queries take D3DISSUE_END only",
                    ));
                }
                s.result = Some(QueryData::Event(true));
                s.issued = true;
            }
            QueryType::Occlusion => {
                if flags.contains(IssueFlags::BEGIN) {
                    s.begin_samples = Some(self.samples_passed);
                    s.result = None;
                }
                if flags.contains(IssueFlags::END) {
                    let begin = s.begin_samples.take().unwrap_or(self.samples_passed);
                    let passed = self.samples_passed.saturating_sub(begin);
                    s.result = Some(QueryData::Occlusion(
                        u32::try_from(passed).unwrap_or(u32::MAX),
                    ));
                    s.issued = true;
                }
                if flags.is_empty() {
                    return Err(Error::invalid_call("Issue: no D3DISSUE_* flag"));
                }
            }
            _ => return Err(Error::invalid_call("Issue: query type not available")),
        }
        Ok(())
    }
}
