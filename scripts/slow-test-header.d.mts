export declare const SLOW_FILE_S: number;
export declare function headerExplainsSlowness(text: string): boolean;
