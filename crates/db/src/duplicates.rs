//! Fingerprints of the stored originals: the SHA-256 (unique) and the perceptual hash, kept whole
//! and as four indexed 16-bit bands. A lookup loads the GIFs sharing any band with the hash (index
//! scans), then keeps those within `NEAR_DUPLICATE_BITS` by an exact Hamming check.

use std::collections::{BTreeMap, HashMap};

use async_trait::async_trait;
use diesel::prelude::*;
use gifshelf_domain::gif::{Fingerprint, GifId, GifSummary, PerceptualHash, Title};
use gifshelf_domain::ports::FingerprintRepository;
use gifshelf_domain::RepoError;

use crate::connection::{AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::{gif_renditions, gifs};

/// The values of the fingerprint columns of a row: `sha256`, `phash`, then `phash_b0` to `phash_b3`.
pub(crate) type Columns = (Option<String>, Option<i64>, Option<i32>, Option<i32>, Option<i32>, Option<i32>);

/// The values of the fingerprint columns of a row.
pub(crate) fn columns(fingerprint: &Fingerprint) -> Columns {
    let sha = (!fingerprint.sha256.is_empty()).then(|| fingerprint.sha256.clone());
    match fingerprint.phash {
        Some(h) => {
            let [b0, b1, b2, b3] = h.bands();
            (sha, Some(h.as_i64()), Some(b0), Some(b1), Some(b2), Some(b3))
        }
        None => (sha, None, None, None, None, None),
    }
}

pub(crate) fn set(conn: &mut AnyConnection, id: i64, fingerprint: &Fingerprint) -> Result<usize, RepoError> {
    let (sha, phash, b0, b1, b2, b3) = columns(fingerprint);
    diesel::update(gifs::table.find(id))
        .set((
            gifs::sha256.eq(sha),
            gifs::phash.eq(phash),
            gifs::phash_b0.eq(b0),
            gifs::phash_b1.eq(b1),
            gifs::phash_b2.eq(b2),
            gifs::phash_b3.eq(b3),
        ))
        .execute(conn)
        .map_err(repo_error)
}

pub(crate) fn find_by_sha256(conn: &mut AnyConnection, sha256: &str) -> Result<Option<GifId>, RepoError> {
    gifs::table
        .filter(gifs::sha256.eq(sha256))
        .select(gifs::id)
        .first::<i64>(conn)
        .optional()
        .map(|id| id.map(GifId))
        .map_err(repo_error)
}

type Candidate = (i64, String, Option<i64>);

/// GIFs sharing at least one band with `phash` (four index lookups).
/// GIFs sharing a band with `phash`, none a moderator hid (members are shown these).
fn candidates(conn: &mut AnyConnection, phash: PerceptualHash) -> Result<Vec<Candidate>, RepoError> {
    let [b0, b1, b2, b3] = phash.bands();
    gifs::table
        .filter(gifs::hidden_at.is_null())
        .filter(gifs::phash_b0.eq(b0).or(gifs::phash_b1.eq(b1)).or(gifs::phash_b2.eq(b2)).or(gifs::phash_b3.eq(b3)))
        .select((gifs::id, gifs::title, gifs::phash))
        .load(conn)
        .map_err(repo_error)
}

pub(crate) fn similar(
    conn: &mut AnyConnection,
    phash: PerceptualHash,
    except: Option<GifId>,
    limit: i64,
) -> Result<Vec<GifSummary>, RepoError> {
    let mut near: Vec<(u32, i64, String)> = candidates(conn, phash)?
        .into_iter()
        .filter(|(id, _, _)| Some(GifId(*id)) != except)
        .filter_map(|(id, title, other)| {
            let other = PerceptualHash::from_i64(other?);
            phash.is_near(other).then(|| (phash.distance(other), id, title))
        })
        .collect();
    near.sort();
    Ok(near
        .into_iter()
        .take(usize::try_from(limit).unwrap_or(0))
        .map(|(_, id, title)| GifSummary { id: GifId(id), title: Title::from_trusted(title) })
        .collect())
}

pub(crate) fn phash_of(conn: &mut AnyConnection, id: GifId) -> Result<Option<PerceptualHash>, RepoError> {
    let phash: Option<i64> = gifs::table.find(id.0).select(gifs::phash).first(conn).map_err(repo_error)?;
    Ok(phash.map(PerceptualHash::from_i64))
}

/// Every hash is read once (id, title and hash: a few dozen bytes per GIF) and bucketed by band;
/// pairs sharing a bucket are kept when near, then joined into groups (union-find).
pub(crate) fn groups(conn: &mut AnyConnection) -> Result<Vec<Vec<GifSummary>>, RepoError> {
    let rows: Vec<(i64, String, Option<i64>)> = gifs::table
        .filter(gifs::phash.is_not_null())
        .select((gifs::id, gifs::title, gifs::phash))
        .load(conn)
        .map_err(repo_error)?;
    let mut by_band: [HashMap<u16, Vec<usize>>; 4] = Default::default();
    let hashes: Vec<PerceptualHash> =
        rows.iter().map(|(_, _, h)| PerceptualHash::from_i64(h.unwrap_or_default())).collect();
    for (i, h) in hashes.iter().enumerate() {
        for (band, value) in by_band.iter_mut().zip(h.bands()) {
            band.entry(value as u16).or_default().push(i);
        }
    }
    let mut parent: Vec<usize> = (0..rows.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for band in &by_band {
        for members in band.values().filter(|m| m.len() > 1) {
            for (k, &a) in members.iter().enumerate() {
                for &b in &members[k + 1..] {
                    if hashes[a].is_near(hashes[b]) {
                        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                        parent[ra.max(rb)] = ra.min(rb);
                    }
                }
            }
        }
    }
    let mut grouped: BTreeMap<i64, Vec<GifSummary>> = BTreeMap::new();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| rows[i].0);
    for i in order {
        let r = root(&mut parent, i);
        let (id, title, _) = &rows[i];
        grouped
            .entry(rows[r].0)
            .or_default()
            .push(GifSummary { id: GifId(*id), title: Title::from_trusted(title.clone()) });
    }
    let mut groups: Vec<Vec<GifSummary>> = grouped.into_values().filter(|g| g.len() > 1).collect();
    groups.sort_by_key(|g| g.first().map(|s| s.id));
    Ok(groups)
}

pub(crate) fn without_fingerprint(
    conn: &mut AnyConnection,
    after: GifId,
    limit: i64,
) -> Result<Vec<(GifId, String)>, RepoError> {
    let rows: Vec<(i64, String)> = gifs::table
        .inner_join(gif_renditions::table)
        .filter(gifs::sha256.is_null())
        .filter(gifs::id.gt(after.0))
        .filter(gif_renditions::kind.eq("original"))
        .select((gifs::id, gif_renditions::blob_key))
        .order(gifs::id.asc())
        .limit(limit)
        .load(conn)
        .map_err(repo_error)?;
    Ok(rows.into_iter().map(|(id, key)| (GifId(id), key)).collect())
}

#[async_trait]
impl FingerprintRepository for Database {
    async fn similar(
        &self,
        phash: PerceptualHash,
        except: Option<GifId>,
        limit: i64,
    ) -> Result<Vec<GifSummary>, RepoError> {
        self.run(move |conn| similar(conn, phash, except, limit)).await
    }

    async fn phash_of(&self, id: GifId) -> Result<Option<PerceptualHash>, RepoError> {
        self.run(move |conn| phash_of(conn, id)).await
    }

    async fn near_duplicate_groups(&self) -> Result<Vec<Vec<GifSummary>>, RepoError> {
        self.run(groups).await
    }

    async fn without_fingerprint(&self, after: GifId, limit: i64) -> Result<Vec<(GifId, String)>, RepoError> {
        self.run(move |conn| without_fingerprint(conn, after, limit)).await
    }

    async fn set_fingerprint(&self, id: GifId, fingerprint: &Fingerprint) -> Result<(), RepoError> {
        let fingerprint = fingerprint.clone();
        self.run(move |conn| match set(conn, id.0, &fingerprint)? {
            0 => Err(RepoError::NotFound),
            _ => Ok(()),
        })
        .await
    }
}
