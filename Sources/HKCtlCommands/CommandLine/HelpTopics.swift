/// Help pages that are not a command's: `hkctl help periods`, `hkctl help help`.
enum HelpTopics {
    /// `hkctl help periods`: the period syntax of `-p`, `--from` and `--to`, as a table like hledger's.
    static let periods = """
        PERIODS (-p, --period; also --from and --to)

        Every period is a whole calendar span in --tz: a day, a week, a month, a quarter or a year.
        Weeks start on --week-start (stats, trend), else on the locale's first weekday ($LC_TIME,
        $LANG), else Monday; 2024-W12 is always the ISO week, Monday to Sunday. As the end of a range,
        a bare month or weekday is the first one at or after its start ('from mar to may').

          2024                  the year 2024
          2024-03, 2024/03      March 2024
          march, mar            the latest March up to now ('march 2023': that one)
          2024-Q1               January to March 2024
          2024-W12              ISO week 12 of 2024 (2024-03-18 to 2024-03-24)
          2024-03-18            that day
          today, yesterday      that day
          monday                the latest Monday up to today
          last monday           the latest Monday before today
          this week             the calendar week holding today (also month, quarter,
                                year)
          last week, next week  the week before, after it (also month, quarter, year)
          last 7 days           the 7 days ending today, today included (also weeks,
                                months, years: 'last 3 months')
          -3d, -2w              the day 3 days (2 weeks) back, in calendar days
          from A to B           the start of A to the end of B, both included
          A to B, A..B          the same
          since A, from A       the start of A onwards
          until B, to B         everything up to the end of B

        Unlike hledger, 'to' and 'until' include their period, as --to does: 'from 2024-03-01 to
        2024-03-15' covers 15 days, 'until last month' ends when this month begins.

        --from and --to take a time (2024-06-01T08:30, 08:30, -2h, -3d: the same clock time 3
        calendar days back) or a period: --from starts where it starts, --to ends where it ends
        (--from 2024-03 --to 2024-05 is March to May).

        --today, --yesterday, --week (the 7 days ending today), --month (30 days), --year (365 days)
        keep their meaning; --this-week, --this-month and --this-year are the calendar periods.

        EXAMPLES:
          hkctl stats steps -p 2024-03 --by week
          hkctl stats sleep -p 'last month' --by night
          hkctl list weight -p 'since 2024-01'
          hkctl stats water --this-week --by day
          hkctl stats steps --from 'last monday'
        """

    /// `hkctl help help`.
    static let help = """
        OVERVIEW: Show help.

        USAGE: hkctl help [<command> | periods]

          hkctl help              every command, with the global options
          hkctl help <command>    one command's options and examples
          hkctl <command> --help  the same
          hkctl help periods      the period syntax of -p, --from and --to
          hkctl help --man        the manual page, hkctl(1), in roff
        """
}
