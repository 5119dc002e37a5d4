import type { Command } from 'commander';
export declare const CLI_DOC: string;
export declare function renderCliDoc(program: Command): string;
