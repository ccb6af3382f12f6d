/**
 * The runtime's objects as the package exports them: each name is both the interface of
 * runtime-objects.ts (the type users write) and the class that implements it (the value, for
 * `instanceof`; its constructor is internal).
 */
import { CheckpointSessionHandle, CheckpointsHandle } from '../memory/checkpoint.js';
import { KernelGraphHandle } from '../kernels/kernel-graph.js';
import { ProfilerSessionHandle, ProfilersHandle } from '../profiler/profiler.js';
import { QueueHandle } from '../queue/queue.js';
import { TimingEventHandle } from '../queue/timing-event.js';
import { AgentHandle } from './agent.js';
import { RuntimeHandle } from './runtime.js';
import type * as Objects from './runtime-objects.js';

export type Runtime = Objects.Runtime;
export const Runtime = RuntimeHandle;
export type Agent = Objects.Agent;
export const Agent = AgentHandle;
export type Queue = Objects.Queue;
export const Queue = QueueHandle;
export type KernelGraph = Objects.KernelGraph;
export const KernelGraph = KernelGraphHandle;
export type TimingEvent = Objects.TimingEvent;
export const TimingEvent = TimingEventHandle;
export type Checkpoints = Objects.Checkpoints;
export const Checkpoints = CheckpointsHandle;
export type CheckpointSession = Objects.CheckpointSession;
export const CheckpointSession = CheckpointSessionHandle;
export type Profilers = Objects.Profilers;
export const Profilers = ProfilersHandle;
export type ProfilerSession = Objects.ProfilerSession;
export const ProfilerSession = ProfilerSessionHandle;
