//! What an entry of the list in `tables.rs` becomes: a row struct that diesel reads and writes and
//! serde puts in the file, and its `Table` impl (name, columns, key, sequence, insert). Paging by
//! key is generic over the key's columns, so no table needs SQL of its own.

use std::marker::PhantomData;

use diesel::pg::Pg;
use diesel::query_builder::{BoxedSqlQuery, SqlQuery};
use diesel::sql_types::{BigInt, Integer, Text};
use diesel::sqlite::Sqlite;
use diesel::{QueryResult, QueryableByName, RunQueryDsl};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::export::export_table;
use super::format::LineWriter;
use super::import::{Batch, Rows};
use super::{Progress, TransferError, PAGE};
use crate::connection::AnyConnection;

/// Declares the tables export/import moves (see `tables.rs` for the syntax and how to add one):
/// for each entry a row struct and its [`Table`] impl; then `NAMES` and `LIST`, in entry order.
macro_rules! tables {
    ($(
        $(#[doc = $doc:literal])*
        $table:ident => $row:ident {
            key: ($($key:ident: $key_type:ty),+ $(,)?),
            serial: $serial:literal,
            columns: { $($column:ident: $column_type:ty),+ $(,)? } $(,)?
        }
    ),* $(,)?) => {
        $(
            $(#[doc = $doc])*
            #[derive(Debug, diesel::QueryableByName, diesel::Insertable, serde::Serialize, serde::Deserialize)]
            #[diesel(table_name = crate::schema::$table, check_for_backend(diesel::sqlite::Sqlite, diesel::pg::Pg))]
            #[serde(deny_unknown_fields)]
            pub(super) struct $row {
                $(
                    #[serde(serialize_with = "crate::transfer::format::in_file")]
                    $column: $column_type,
                )+
            }

            impl crate::transfer::table::Table for $row {
                const NAME: &'static str = stringify!($table);
                const COLUMNS: &'static [&'static str] = &[$(stringify!($column)),+];
                const KEY: &'static [&'static str] = &[$(stringify!($key)),+];
                const SERIAL: bool = $serial;
                type Key = ($($key_type,)+);

                fn key(&self) -> Self::Key {
                    ($(self.$key.clone(),)+)
                }

                fn insert(
                    conn: &mut crate::connection::AnyConnection,
                    rows: &[Self],
                ) -> diesel::QueryResult<usize> {
                    use diesel::RunQueryDsl;
                    let table = crate::schema::$table::table;
                    // One multi-row statement on PostgreSQL (not on the shared backend); row by row
                    // on SQLite, whose multi-row insert in diesel opens a transaction of its own (we
                    // are inside one it does not know) and which pays no round trip per statement.
                    match conn {
                        crate::connection::AnyConnection::Postgresql(c) => {
                            diesel::insert_into(table).values(rows).execute(c)
                        }
                        crate::connection::AnyConnection::Sqlite(c) => rows
                            .iter()
                            .try_fold(0, |n, row| diesel::insert_into(table).values(row).execute(c).map(|m| n + m)),
                    }
                }
            }
        )*

        /// The tables' names, in dependency order.
        pub(super) const NAMES: &[&str] = &[$(stringify!($table)),*];

        /// The tables, in dependency order.
        pub(super) const LIST: &[&dyn crate::transfer::table::AnyTable] =
            &[$(&crate::transfer::table::Of::<$row>::NEW),*];
    };
}
pub(super) use tables;

/// One table as export/import moves it; implemented by the `tables!` macro.
pub(super) trait Table:
    Serialize + DeserializeOwned + QueryableByName<Sqlite> + QueryableByName<Pg> + 'static
{
    const NAME: &'static str;
    /// Every column, in the order of the struct and of the file.
    const COLUMNS: &'static [&'static str];
    /// The primary key's columns, in index order: export pages by them.
    const KEY: &'static [&'static str];
    /// Whether `id` comes from a sequence (PostgreSQL) or AUTOINCREMENT (SQLite).
    const SERIAL: bool;
    /// The values of `KEY`.
    type Key: Key;
    fn key(&self) -> Self::Key;
    fn insert(conn: &mut AnyConnection, rows: &[Self]) -> QueryResult<usize>;
}

/// Up to `PAGE` rows of `T` after `after` (from the first without it), in key order.
pub(super) fn page<T: Table>(conn: &mut AnyConnection, after: Option<T::Key>) -> QueryResult<Vec<T>> {
    let postgres = matches!(conn, AnyConnection::Postgresql(_));
    // Text in code point order on both backends (PostgreSQL's default collation is the locale's),
    // so that the same rows make the same file.
    let key = T::KEY
        .iter()
        .zip(<T::Key as Key>::TEXT)
        .map(|(column, text)| if postgres && *text { format!("{column} COLLATE \"C\"") } else { (*column).to_owned() })
        .collect::<Vec<_>>()
        .join(", ");
    let mut sql = format!("SELECT {} FROM {}", T::COLUMNS.join(", "), T::NAME);
    if after.is_some() {
        let parameters = (1..=T::KEY.len())
            .map(|i| if postgres { format!("${i}") } else { "?".to_owned() })
            .collect::<Vec<_>>()
            .join(", ");
        sql.push_str(&format!(" WHERE ({key}) > ({parameters})"));
    }
    sql.push_str(&format!(" ORDER BY {key} LIMIT {PAGE}"));
    match conn {
        AnyConnection::Sqlite(c) => {
            let mut query = diesel::sql_query(sql).into_boxed::<Sqlite>();
            if let Some(after) = after {
                query = after.bind_sqlite(query);
            }
            query.load(c)
        }
        AnyConnection::Postgresql(c) => {
            let mut query = diesel::sql_query(sql).into_boxed::<Pg>();
            if let Some(after) = after {
                query = after.bind_postgres(query);
            }
            query.load(c)
        }
    }
}

type SqliteQuery = BoxedSqlQuery<'static, Sqlite, SqlQuery>;
type PostgresQuery = BoxedSqlQuery<'static, Pg, SqlQuery>;

/// A key column's value, bound to a page's query.
pub(super) trait KeyPart: Clone + Send + 'static {
    /// Compared as text (in code point order).
    const TEXT: bool;
    fn bind_sqlite(self, query: SqliteQuery) -> SqliteQuery;
    fn bind_postgres(self, query: PostgresQuery) -> PostgresQuery;
}

macro_rules! key_part {
    ($type:ty, $sql:ty, $text:literal) => {
        impl KeyPart for $type {
            const TEXT: bool = $text;
            fn bind_sqlite(self, query: SqliteQuery) -> SqliteQuery {
                query.bind::<$sql, _>(self)
            }
            fn bind_postgres(self, query: PostgresQuery) -> PostgresQuery {
                query.bind::<$sql, _>(self)
            }
        }
    };
}
key_part!(i64, BigInt, false);
key_part!(i32, Integer, false);
key_part!(String, Text, true);
key_part!(chrono::NaiveDateTime, diesel::sql_types::Timestamp, false);

/// A whole key: a tuple of `KeyPart`s, bound in order.
pub(super) trait Key {
    const TEXT: &'static [bool];
    fn bind_sqlite(self, query: SqliteQuery) -> SqliteQuery;
    fn bind_postgres(self, query: PostgresQuery) -> PostgresQuery;
}

macro_rules! key_tuple {
    ($($part:ident . $index:tt),+) => {
        impl<$($part: KeyPart),+> Key for ($($part,)+) {
            const TEXT: &'static [bool] = &[$(<$part as KeyPart>::TEXT),+];
            fn bind_sqlite(self, query: SqliteQuery) -> SqliteQuery {
                $(let query = self.$index.bind_sqlite(query);)+
                query
            }
            fn bind_postgres(self, query: PostgresQuery) -> PostgresQuery {
                $(let query = self.$index.bind_postgres(query);)+
                query
            }
        }
    };
}
key_tuple!(A.0);
key_tuple!(A.0, B.1);
key_tuple!(A.0, B.1, C.2);

/// A table of the list without its row type, so that the list can be one slice.
pub(super) trait AnyTable {
    fn name(&self) -> &'static str;
    fn columns(&self) -> &'static [&'static str];
    fn serial(&self) -> bool;
    /// Writes every row, a page at a time; returns how many.
    fn export(
        &self,
        conn: &mut AnyConnection,
        writer: &mut LineWriter<'_>,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<u64, TransferError>;
    /// An empty batch of rows to import.
    fn batch(&self) -> Box<dyn Batch>;
}

/// `T` as an [`AnyTable`].
pub(super) struct Of<T>(PhantomData<fn() -> T>);

impl<T> Of<T> {
    pub(super) const NEW: Self = Self(PhantomData);
}

impl<T: Table> AnyTable for Of<T> {
    fn name(&self) -> &'static str {
        T::NAME
    }
    fn columns(&self) -> &'static [&'static str] {
        T::COLUMNS
    }
    fn serial(&self) -> bool {
        T::SERIAL
    }
    fn export(
        &self,
        conn: &mut AnyConnection,
        writer: &mut LineWriter<'_>,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<u64, TransferError> {
        export_table::<T>(conn, writer, progress)
    }
    fn batch(&self) -> Box<dyn Batch> {
        Box::new(Rows::<T>::default())
    }
}
