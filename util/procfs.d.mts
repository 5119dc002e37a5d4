// Types of procfs.mjs (plain JavaScript so that sandbox/reaper.mjs can run it without a compiler).
export interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  sid: number;
  /** Start time, clock ticks since boot (/proc/<pid>/stat field 22). */
  start: number;
}
export const CLOCK_TICKS: number;
export function machineCpuTicks(): { busy: number; idle: number } | null;
export function pids(): number[];
export function statFields(pid: number): string[] | null;
export function liveProcesses(): ProcInfo[];
export function argvOf(pid: number): string[];
export function isProcessGone(pid: number): boolean;
export function startTimeOf(pid: number): string | null;
export function environOf(pid: number): string[] | null;
export function envValueOf(pid: number, name: string): string | null;
export function cwdInside(pid: number, dir: string): boolean;
export function holdsSocket(pid: number, sockets: Set<string>): boolean;
export function processTree(root: number): number[];
export function processTreeCpuMs(root: number): number | undefined;
export function signalPid(pid: number, sig: NodeJS.Signals): void;
