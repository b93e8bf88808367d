// Paced rooms (the room rule turn_limit_seconds): the choices offered, and how a limit
// and the time left are said.
import { t, tn } from "./i18n.js";

/** The turn limits offered in the rules picker, in seconds ("" : a live game). */
export const PACE_CHOICES = ["", 3600, 4 * 3600, 12 * 3600, 86400, 172800];

/** "1 hour", "12 hours", "1 day", "45 seconds": a duration as a person says it. */
export function durationText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.round(s / 3600);
  if (hours >= 24) {
    const days = tn("{n} day", "{n} days", Math.floor(hours / 24));
    return hours % 24 ? t("{days} {hours}", { days, hours: tn("{n} hour", "{n} hours", hours % 24) }) : days;
  }
  if (s >= 3600) return tn("{n} hour", "{n} hours", hours);
  if (s >= 60) return tn("{n} minute", "{n} minutes", Math.round(s / 60));
  return tn("{n} second", "{n} seconds", s);
}

/** The option of the picker for a limit. */
export function paceChoiceText(limit) {
  return limit === "" || limit === null || limit === undefined ? t("Live: everyone plays at the same time") : t("Paced: {time} per move", { time: durationText(limit) });
}

/** "5 hours left" (or "time is up") before `due`, in Unix seconds. */
export function timeLeftText(due) {
  const left = due - Date.now() / 1000;
  return left <= 0 ? t("time is up: a bot plays this move") : t("{time} left", { time: durationText(left) });
}
