//! State blocks (`IDirect3DStateBlock9`): record, create by type, capture, apply.

use super::device::Device;
use super::state_mask::{StateBlockType, StateMask};
use crate::device_state::DeviceState;
use crate::error::{Error, Result};

/// A saved set of device states.
///
/// A block holds a mask (which states) and their values. `apply` writes
/// the masked values to the device; `capture` re-reads them from it.
#[derive(Clone, Debug)]
pub struct StateBlock {
    pub(crate) mask: StateMask,
    pub(crate) values: Box<DeviceState>,
    /// The device the block belongs to (by its back buffer's identity).
    pub(crate) owner: u64,
}

impl StateBlock {
    /// Writes the block's states to `device` (`IDirect3DStateBlock9::Apply`).
    pub fn apply(&self, device: &mut Device) -> Result<()> {
        device.apply_state_block(self)
    }

    /// Re-reads the block's states from `device` (`IDirect3DStateBlock9::Capture`).
    pub fn capture(&mut self, device: &Device) -> Result<()> {
        device.capture_state_block(self)
    }
}

impl Device {
    fn owner_id(&self) -> u64 {
        self.back_buffer.id()
    }

    /// `BeginStateBlock`: later state calls are recorded into the block
    /// (and not applied) until `end_state_block`.
    pub fn begin_state_block(&mut self) -> Result<()> {
        if self.recording.is_some() {
            return Err(Error::invalid_call(
                "BeginStateBlock while already recording",
            ));
        }
        self.recording = Some(StateBlock {
            mask: StateMask::empty(),
            values: Box::new(self.state.clone()),
            owner: self.owner_id(),
        });
        Ok(())
    }

    /// `EndStateBlock`: the recorded block.
    pub fn end_state_block(&mut self) -> Result<StateBlock> {
        self.recording
            .take()
            .ok_or_else(|| Error::invalid_call("EndStateBlock without BeginStateBlock"))
    }

    /// Whether a state block is being recorded.
    pub fn is_recording_state_block(&self) -> bool {
        self.recording.is_some()
    }

    /// `CreateStateBlock`: a block holding the current values of every state of `kind`.
    pub fn create_state_block(&self, kind: StateBlockType) -> Result<StateBlock> {
        if self.recording.is_some() {
            return Err(Error::invalid_call(
                "CreateStateBlock while recording a state block",
            ));
        }
        Ok(StateBlock {
            mask: StateMask::predefined(kind, &self.state),
            values: Box::new(self.state.clone()),
            owner: self.owner_id(),
        })
    }

    /// Applies a state block to this device.
    pub fn apply_state_block(&mut self, block: &StateBlock) -> Result<()> {
        self.check_block(block, "Apply")?;
        block.mask.copy(&block.values, &mut self.state);
        Ok(())
    }

    /// Re-captures a state block's states from this device.
    pub fn capture_state_block(&self, block: &mut StateBlock) -> Result<()> {
        self.check_block(block, "Capture")?;
        let StateBlock { mask, values, .. } = block;
        mask.copy(&self.state, values);
        Ok(())
    }

    fn check_block(&self, block: &StateBlock, call: &str) -> Result<()> {
        if self.recording.is_some() {
            return Err(Error::invalid_call(format!(
                "{call}: not allowed while recording a state block"
            )));
        }
        if block.owner != self.owner_id() {
            return Err(Error::invalid_call(format!(
                "{call}: the state block belongs to another device"
            )));
        }
        Ok(())
    }
}
